export * from './music-endpoints';
export * from './music-request.transform';
export * from './music-response.transform';
