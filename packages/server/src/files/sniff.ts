import { fileTypeFromBuffer } from 'file-type';

/** The types §12 trusts the bytes' signature for, whatever the upload declared. */
const SNIFFED = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'application/pdf',
  'application/zip',
  'video/mp4',
  'video/webm',
  'audio/ogg',
  'video/ogg',
  'application/ogg',
  'audio/mpeg',
  'audio/wav',
  'audio/x-wav',
  'audio/vnd.wave',
]);

/** Types file-type names differently from what §12 stores. */
const ALIASES = new Map([
  ['audio/x-wav', 'audio/wav'],
  ['audio/vnd.wave', 'audio/wav'],
]);

/** The types a sniffed upload may end up with (the create rule's early check tries each). */
export const SNIFFED_TYPES = [...new Set([...SNIFFED].map((t) => ALIASES.get(t) ?? t))];

/**
 * The type to store: the signature's for the formats §12 lists, else the declared type,
 * lower-cased and without parameters (none: application/octet-stream).
 */
export async function storedType(head: Buffer, declared: string | undefined): Promise<string> {
  const found = head.length ? await fileTypeFromBuffer(head).catch(() => undefined) : undefined;
  if (found && SNIFFED.has(found.mime)) return ALIASES.get(found.mime) ?? found.mime;
  return declaredType(declared);
}

/** A declared Content-Type as §12 keeps it: its essence, lower-cased. */
export function declaredType(declared: string | undefined): string {
  const essence = declared?.split(';')[0].trim().toLowerCase();
  return essence && /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(essence) ? essence : 'application/octet-stream';
}
