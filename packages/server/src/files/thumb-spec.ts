/** A thumbnail size (API.md §12): `WxH` crops to fill, `WxHf` fits inside, a 0 side keeps the ratio. */
export interface ThumbSpec {
  width: number;
  height: number;
  fit: 'cover' | 'inside';
  text: string;
}

const MAX_SIDE = 2048;

/** The size `text` names, or undefined when it is not one (sides 0..2048, not both 0). */
export function parseThumb(text: string): ThumbSpec | undefined {
  const m = /^(0|[1-9]\d{0,3})x(0|[1-9]\d{0,3})(f?)$/.exec(text);
  if (!m) return undefined;
  const width = Number(m[1]);
  const height = Number(m[2]);
  if (width > MAX_SIDE || height > MAX_SIDE || (width === 0 && height === 0)) return undefined;
  return { width, height, fit: m[3] || width === 0 || height === 0 ? 'inside' : 'cover', text };
}
