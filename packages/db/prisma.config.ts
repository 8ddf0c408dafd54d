import { defineConfig } from 'prisma/config';

// Prisma 7 reads connection settings from here (only used by the CLI on machines that have the
// native schema engine; our own migrate runner reads DATABASE_URL through @risk/common's config).
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/risk' },
});
