/** The largest centred square of a picture: what a profile picture or a brand logo shows. */
export function centerSquare(width: number, height: number): { x: number; y: number; side: number } {
  const side = Math.min(width, height);
  return { x: Math.floor((width - side) / 2), y: Math.floor((height - side) / 2), side };
}

/** The side of the saved square: never larger than the picture, at most `max` pixels. */
export function squareSide(side: number, max: number): number {
  return Math.max(1, Math.min(side, max));
}

/**
 * Crops a picked picture to its centred square and scales it to at most `max` pixels a side, on a
 * canvas (WebP where the browser encodes it, else PNG). Rejects with a sentence when the file is not
 * a picture the browser can read.
 */
export async function cropToSquare(file: Blob, max = 512): Promise<Blob> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new Error('This file is not a picture we can read. Choose a JPEG, PNG, WebP or GIF image.');
  }
  const { x, y, side } = centerSquare(bitmap.width, bitmap.height);
  const out = squareSide(side, max);
  const canvas = document.createElement('canvas');
  canvas.width = out;
  canvas.height = out;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('This browser cannot prepare pictures. Try another browser.');
  context.drawImage(bitmap, x, y, side, side, 0, 0, out, out);
  bitmap.close();
  const encode = (type: string) => new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, 0.9));
  const webp = await encode('image/webp');
  const blob = webp?.type === 'image/webp' ? webp : await encode('image/png');
  if (!blob) throw new Error('This picture could not be prepared. Try another one.');
  return blob;
}
