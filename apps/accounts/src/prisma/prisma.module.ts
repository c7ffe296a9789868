// Owns the process's one Prisma client: created from the configured URL, disconnected on shutdown.
import { createPrismaClient, PrismaClient } from '@gateway/db';
import { Global, Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';

@Injectable()
class PrismaLifecycle implements OnApplicationShutdown {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.prisma.$disconnect();
  }
}

@Global()
@Module({})
export class PrismaModule {
  static forUrl(databaseUrl: string): DynamicModule {
    return {
      module: PrismaModule,
      providers: [{ provide: PrismaClient, useFactory: () => createPrismaClient(databaseUrl) }, PrismaLifecycle],
      exports: [PrismaClient],
    };
  }
}
