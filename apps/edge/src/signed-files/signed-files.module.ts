// Owns the edge's signed object links: the route that streams a stored task result to whoever holds its link.
import { loadEnv } from '@gateway/platform';
import { createObjectStore, StorageEnv, UrlSigner } from '@gateway/storage';
import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { registerSignedFileRoute } from './signed-files.routes';

@Module({})
export class SignedFilesModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    registerSignedFileRoute(fastify, UrlSigner.fromEnv(), createObjectStore(loadEnv(StorageEnv)));
  }
}
