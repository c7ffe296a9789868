// Small valid files of the music vendor's results: MP3 (silent MPEG-1 Layer III frames) and a minimal MP4
// (ftyp box); WAV and PNG come from the shared media builder.
const MP3_FRAME_BYTES = 417; // 128 kbit/s at 44.1 kHz, no padding
const MP3_FRAME_SECONDS = 1152 / 44100;

/** A silent MP3 of about `seconds`: frames whose side information is all zero decode to silence. */
export function buildMp3(seconds: number): Buffer {
  const frames = Math.max(1, Math.round(seconds / MP3_FRAME_SECONDS));
  const frame = Buffer.alloc(MP3_FRAME_BYTES);
  frame.writeUInt32BE(0xfffb9064, 0); // sync, MPEG-1, Layer III, no CRC, 128 kbit/s, 44.1 kHz, joint stereo
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

/** The smallest MP4 a player recognises as one: an `ftyp` box (isom) followed by an empty `free` box. */
export function buildMp4(): Buffer {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write('ftyp', 4, 'ascii');
  ftyp.write('isom', 8, 'ascii');
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write('isomiso2', 16, 'ascii');
  const free = Buffer.alloc(8);
  free.writeUInt32BE(8, 0);
  free.write('free', 4, 'ascii');
  return Buffer.concat([ftyp, free]);
}
