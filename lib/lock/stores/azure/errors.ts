// Azure's answers as Lockboard judges them: the HTTP status and Azure's error code of a failed request, and a request
// that reached no service or was refused its credentials, said in Azure's words with the variables that configure it
// (store-errors.ts turns those codes into the console's unreachable note and the CLI's exit 3).
const CREDENTIALS =
  'credentials come from AZURE_STORAGE_CONNECTION_STRING (its BlobEndpoint for Azurite or a sovereign cloud), ' +
  'AZURE_STORAGE_KEY, AZURE_STORAGE_SAS_TOKEN, or Entra ID (DefaultAzureCredential: az login, a managed identity, AZURE_CLIENT_ID…)';

/** Network codes, and Node's HTTP parser's (HPE_…): what answered on the endpoint's port does not speak HTTP. */
const NETWORK = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EPIPE|EAI_AGAIN|HPE_[A-Z_]+)$/;

export function azureStatus(err: unknown): number | undefined {
  const s = (err as { statusCode?: unknown })?.statusCode;
  return typeof s === 'number' ? s : undefined;
}

export function azureCode(err: unknown): string | undefined {
  const c = (err as { code?: unknown; details?: { errorCode?: unknown } })?.code;
  return typeof c === 'string' ? c : undefined;
}

/** `err` in Azure's words when the request reached no service, was denied, or met no container; else `err` itself. */
export function azureUnavailable(err: unknown, source: string, endpoint: string): unknown {
  if (!(err instanceof Error)) return err;
  const code = azureCode(err) ?? (err.cause as { code?: string } | undefined)?.code;
  const status = azureStatus(err);
  if (code && NETWORK.test(code))
    return Object.assign(
      new Error(
        `Cannot reach Azure Blob Storage for ${source} (endpoint ${endpoint}): ${err.message}. The endpoint and ${CREDENTIALS}.`,
      ),
      {
        code,
        cause: err,
      },
    );
  if (status === 403 || status === 401)
    return Object.assign(
      new Error(`Azure Blob Storage refused the credentials for ${source} (${code ?? status}); ${CREDENTIALS}.`),
      { code: 'CONFIG', cause: err },
    );
  if (code === 'ContainerNotFound')
    return Object.assign(new Error(`${source}: the container does not exist (ContainerNotFound).`), {
      code: 'CONFIG',
      cause: err,
    });
  if (err.name === 'CredentialUnavailableError' || err.name === 'AggregateAuthenticationError')
    return Object.assign(new Error(`No Azure credentials for ${source}: ${CREDENTIALS}.`), {
      code: 'CONFIG',
      cause: err,
    });
  return err;
}
