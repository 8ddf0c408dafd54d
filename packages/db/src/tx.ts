import type { PrismaClient } from './generated/prisma/client';

/** The client handed to `prisma.$transaction(async (tx) => …)`. */
export type Tx = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;
