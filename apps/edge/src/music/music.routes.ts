import { Injectable } from '@nestjs/common';
import { RouteHandler } from '../routing/route-handler.decorator';
import type { RouteRequest } from '../routing/route-request';
import { MusicRelayService } from './music-relay.service';

/** The music family's 22 routes: each hands the parsed request to the music service. */
@Injectable()
export class MusicRoutes {
  constructor(private readonly relay: MusicRelayService) {}

  @RouteHandler('music.generate')
  generate(r: RouteRequest) {
    return this.relay.create('generate', r);
  }

  @RouteHandler('music.extend')
  extend(r: RouteRequest) {
    return this.relay.create('extend', r);
  }

  @RouteHandler('music.generate-lyrics')
  lyrics(r: RouteRequest) {
    return this.relay.create('generate-lyrics', r);
  }

  @RouteHandler('music.timestamped-lyrics')
  timestampedLyrics(r: RouteRequest) {
    return this.relay.create('timestamped-lyrics', r);
  }

  @RouteHandler('music.style-generate')
  style(r: RouteRequest) {
    return this.relay.create('style-generate', r);
  }

  @RouteHandler('music.generate-cover')
  coverArt(r: RouteRequest) {
    return this.relay.create('generate-cover', r);
  }

  @RouteHandler('music.upload-cover')
  uploadCover(r: RouteRequest) {
    return this.relay.create('upload-cover', r);
  }

  @RouteHandler('music.upload-extend')
  uploadExtend(r: RouteRequest) {
    return this.relay.create('upload-extend', r);
  }

  @RouteHandler('music.add-vocals')
  addVocals(r: RouteRequest) {
    return this.relay.create('add-vocals', r);
  }

  @RouteHandler('music.add-instrumental')
  addInstrumental(r: RouteRequest) {
    return this.relay.create('add-instrumental', r);
  }

  @RouteHandler('music.generate-persona')
  persona(r: RouteRequest) {
    return this.relay.create('generate-persona', r);
  }

  @RouteHandler('music.vocal-removal')
  vocalRemoval(r: RouteRequest) {
    return this.relay.create('vocal-removal', r);
  }

  @RouteHandler('music.split-stem')
  splitStem(r: RouteRequest) {
    return this.relay.create('split-stem', r);
  }

  @RouteHandler('music.replace-section')
  replaceSection(r: RouteRequest) {
    return this.relay.create('replace-section', r);
  }

  @RouteHandler('music.wav-generate')
  wav(r: RouteRequest) {
    return this.relay.create('wav-generate', r);
  }

  @RouteHandler('music.mp4-generate')
  mp4(r: RouteRequest) {
    return this.relay.create('mp4-generate', r);
  }

  @RouteHandler('music.query.task')
  queryTask(r: RouteRequest) {
    return this.relay.query('task', r);
  }

  @RouteHandler('music.query.lyrics')
  queryLyrics(r: RouteRequest) {
    return this.relay.query('lyrics', r);
  }

  @RouteHandler('music.query.vocal-removal')
  queryVocalRemoval(r: RouteRequest) {
    return this.relay.query('vocal-removal', r);
  }

  @RouteHandler('music.query.wav')
  queryWav(r: RouteRequest) {
    return this.relay.query('wav', r);
  }

  @RouteHandler('music.query.mp4')
  queryMp4(r: RouteRequest) {
    return this.relay.query('mp4', r);
  }

  @RouteHandler('music.query.cover')
  queryCover(r: RouteRequest) {
    return this.relay.query('cover', r);
  }
}
