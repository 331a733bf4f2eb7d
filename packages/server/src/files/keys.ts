/**
 * Byte-store keys of a file, made of ids only (a name never becomes a key or a path):
 * `<databaseId>/<fileId>/original` and `<databaseId>/<fileId>/thumb-<size>`.
 */
export const filePrefix = (databaseId: string, fileId: string) => `${databaseId}/${fileId}/`;
export const originalKey = (databaseId: string, fileId: string) => `${filePrefix(databaseId, fileId)}original`;
export const thumbKey = (databaseId: string, fileId: string, thumb: string) => `${filePrefix(databaseId, fileId)}thumb-${thumb}`;

/** The database and file a key belongs to, or undefined for keys that are no file's (uploads in progress). */
export function keyOwner(key: string): { databaseId: string; fileId: string } | undefined {
  const parts = key.split('/');
  if (parts.length !== 3 || !parts[0] || !parts[1] || parts[0].startsWith('.')) return undefined;
  return { databaseId: parts[0], fileId: parts[1] };
}
