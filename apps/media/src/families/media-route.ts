import { GatewayError, NativeImageKind, NativeVideoKind, type NativeKind } from '@gateway/contracts';

export type MediaFamily = 'oaic' | 'dsc' | 'nativemedia';

/** What a route id says about a media call: its family, the query kind its tasks are read on, and for creates what they make. */
export interface MediaRoute {
  family: MediaFamily;
  queryKind: string;
  /** Set on create routes. */
  output?: 'video' | 'image';
  nativeKind?: NativeKind;
}

const NATIVE = /^nativemedia\.(videos|images)\.([a-z0-9-]+)\.(create|get)$/;

/** The media route behind a route id of the table; anything else is a bug at the edge, refused as a 400 naming the route. */
export function mediaRouteOf(routeId: string): MediaRoute {
  switch (routeId) {
    case 'oaic.videos.create':
      return { family: 'oaic', queryKind: 'videos', output: 'video' };
    case 'oaic.videos.get':
    case 'oaic.videos.content':
      return { family: 'oaic', queryKind: 'videos' };
    case 'dsc.video':
      return { family: 'dsc', queryKind: 'tasks', output: 'video' };
    case 'dsc.image':
      return { family: 'dsc', queryKind: 'tasks', output: 'image' };
    case 'dsc.tasks.get':
      return { family: 'dsc', queryKind: 'tasks' };
  }
  const native = NATIVE.exec(routeId);
  if (native) {
    const kind = (native[1] === 'videos' ? NativeVideoKind : NativeImageKind).safeParse(native[2]);
    if (kind.success) {
      const create = native[3] === 'create';
      return { family: 'nativemedia', queryKind: kind.data, ...(create ? { output: native[1] === 'videos' ? 'video' : 'image', nativeKind: kind.data } : {}) };
    }
  }
  throw GatewayError.invalid(`The route ${routeId} is not a media route.`, 'route');
}
