// The AWS SDK for JavaScript prints its own notice (its releases from January 2027 need Node >= 22) into the terminal
// of every s3:// and dynamodb:// command on Node 20. The CLI's output carries only Lockboard's words, so the SDK's
// own switch turns the notice off for Lockboard's process, unless the operator set that switch themselves. The
// README says which Node versions Lockboard supports and why. A command `lockboard run` starts gets the environment
// the operator gave, without the switch Lockboard added.
const SWITCH = 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED';
let added = false;

/** Turns the SDK's Node-version notice off in this process (before any AWS client is constructed). */
export function quietSdkNotices(env: NodeJS.ProcessEnv = process.env): void {
  if (env[SWITCH] !== undefined) return;
  env[SWITCH] = 'true';
  added = true;
}

/** The environment for a command Lockboard runs: the operator's own, without the switch when Lockboard added it. */
export function operatorEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (!added) return { ...env };
  const rest = { ...env };
  delete rest[SWITCH];
  return rest;
}
