/** What a family of dashboard pages needs from the dashboard's routes (src/dashboard/routes.ts builds one). */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ResultStore } from '../../store/result-store.js';

/** The dashboard's app, store, mount point (`prefix` for routes, `base` for links) and its answer helpers. */
export interface PageRouteKit {
  readonly app: FastifyInstance;
  readonly store: ResultStore;
  readonly prefix: string;
  readonly base: string;
  html(reply: FastifyReply, body: string, status?: number): FastifyReply;
  problemPage(reply: FastifyReply, status: number, title: string, message: string): FastifyReply;
  apiError(reply: FastifyReply, status: number, code: string, message: string): FastifyReply;
}
