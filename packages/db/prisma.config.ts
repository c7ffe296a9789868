import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { createMigrationAdapter } from './src/migration-adapter';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join(__dirname, 'prisma', 'schema.prisma'),
  migrations: { path: path.join(__dirname, 'prisma', 'migrations') },
  adapter: async () => createMigrationAdapter(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gateway'),
});
