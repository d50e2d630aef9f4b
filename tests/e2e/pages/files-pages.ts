import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { withE2eDatabase } from '../support/e2e-server-info.ts';

/** A picture made at run time (nothing large in the repo): a coloured rectangle, PNG. */
export function makePicture(width = 600, height = 400, colour = '#c0392b'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

/**
 * A video-shaped file of `bytes` bytes made at run time: an MP4 `ftyp` box (what the server reads the
 * type from) and one `mdat` box of filler.
 */
export function makeVideo(bytes: number): Buffer {
  const file = Buffer.alloc(bytes);
  const ftyp = Buffer.from([0, 0, 0, 0x18, ...Buffer.from('ftypisom'), 0, 0, 2, 0, ...Buffer.from('isommp41')]);
  ftyp.copy(file, 0);
  file.writeUInt32BE(bytes - ftyp.length, ftyp.length);
  file.write('mdat', ftyp.length + 4, 'latin1');
  for (let i = ftyp.length + 8; i < bytes; i += 4096) file[i] = i & 0xff;
  return file;
}

/** The profile row as the server holds it. */
export async function serverPictures(
  email: string,
): Promise<{ id: string; avatar_url: string | null; portfolio_media: { id: string; url: string; kind: string }[] }> {
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query(
      `select p.id, p.avatar_url, p.portfolio_media from public.profiles p join auth.users u on u.id = p.id where u.email = $1`,
      [email],
    );
    return rows[0];
  });
}

/** Whether an <img> has loaded a real picture (not a broken one). */
export function pictureLoaded(page: Page, selector: string): Promise<boolean> {
  return page
    .locator(selector)
    .first()
    .evaluate((img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0);
}
