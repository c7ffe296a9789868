// `@gateway/platform/infra`: a separate entry so that only the services, not the edge, load Prisma and storage.
export * from './service-infra.module';
export * from './database.providers';
