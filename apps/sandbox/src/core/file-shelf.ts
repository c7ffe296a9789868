// Generated files served back by URL (images asked for with response_format=url); bounded so a long
// benchmark cannot grow memory without limit.
import { randomUUID } from 'node:crypto';

export interface ShelvedFile {
  contentType: string;
  bytes: Buffer;
}

export class FileShelf {
  private readonly files = new Map<string, ShelvedFile>();

  constructor(private readonly capacity = 256) {}

  put(file: ShelvedFile, extension: string): string {
    const name = `${randomUUID()}.${extension}`;
    this.files.set(name, file);
    if (this.files.size > this.capacity) this.files.delete(this.files.keys().next().value!);
    return name;
  }

  get(name: string): ShelvedFile | undefined {
    return this.files.get(name);
  }
}
