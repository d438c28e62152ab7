export interface StoredObject {
  name: string;
  generation: number;
  metageneration: number;
  data: Buffer;
  contentType: string;
  cacheControl?: string;
  contentEncoding?: string;
  contentDisposition?: string;
  contentLanguage?: string;
  metadata?: Record<string, string>;
  timeCreated: number;
  updated: number;
  timeDeleted?: number;
  /** Object holds: while either is true the object cannot be deleted or overwritten (GCS answers 403). */
  temporaryHold?: boolean;
  eventBasedHold?: boolean;
  md5Hash: string;
  crc32c: string;
}

export interface StoredBucket {
  name: string;
  timeCreated: number;
  updated: number;
  metageneration: number;
  versioning: boolean;
}

export interface Preconditions {
  ifGenerationMatch?: number;
  ifGenerationNotMatch?: number;
  ifMetagenerationMatch?: number;
  ifMetagenerationNotMatch?: number;
}

/** Writable object fields, as accepted by upload metadata, PATCH and PUT. */
export interface ObjectFields {
  contentType?: string;
  cacheControl?: string | null;
  contentEncoding?: string | null;
  contentDisposition?: string | null;
  contentLanguage?: string | null;
  metadata?: Record<string, string | null> | null;
  temporaryHold?: boolean | null;
  eventBasedHold?: boolean | null;
}

export interface ListOptions {
  prefix?: string;
  delimiter?: string;
  maxResults?: number;
  pageToken?: string;
  startOffset?: string;
  endOffset?: string;
  versions?: boolean;
  includeTrailingDelimiter?: boolean;
}

export interface ListPage {
  items: StoredObject[];
  prefixes: string[];
  nextPageToken?: string;
}
