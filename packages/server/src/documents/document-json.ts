/**
 * Documents leave the service as JSON text built around the stored text of the user's fields, so
 * reads never parse and re-serialise a document: `{"id":…,<stored fields>,"createdAt":…,"updatedAt":…}`.
 * The stored text is always a JSON object without system fields (the service strips them on write).
 */
export type DocumentJson = string & { readonly __documentJson: unique symbol };

export function documentJson(id: string, dataText: string, createdAt: string, updatedAt: string): DocumentJson {
  const inner = dataText.slice(dataText.indexOf('{') + 1, dataText.lastIndexOf('}')).trim();
  return `{"id":${JSON.stringify(id)},${inner ? `${inner},` : ''}"createdAt":"${createdAt}","updatedAt":"${updatedAt}"}` as DocumentJson;
}

/** `[doc, doc, …]` as JSON text. */
export const documentArrayJson = (docs: DocumentJson[]): string => `[${docs.join(',')}]`;
