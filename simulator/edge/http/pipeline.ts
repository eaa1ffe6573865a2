// The request pipeline, declared once as a list of stages. Each stage is one middleware of the Hono chain and, when
// it has one, the same step on the direct path (direct-path.ts), which answers the one request an integration
// makes most (a create) from node:http without the chain's per-request objects. Both paths are built from the same
// list, in its order: a stage added without a direct form turns the direct path off instead of being skipped by it.
import type { Env, Hono, MiddlewareHandler } from 'hono';

/** One request as a stage's direct form sees it. */
export interface DirectRequest {
  readonly method: string;
  readonly path: string;
  /** A request header (names in lower case), HTTP whitespace trimmed, as the chain's adapter gives it. */
  header(name: string): string | undefined;
  /** The socket's peer address, IPv4-mapped addresses unmapped. */
  readonly remoteAddress: string;
  /** The request's variables (the chain's c.set/c.get): identity, merchantId, apiKeyId. */
  readonly vars: Record<string, unknown>;
  /** Headers every answer to this request carries (the chain's c.header before the handler), added by stages. */
  readonly answerHeaders: Record<string, string>;
  /** performance.now() when the request was taken. */
  readonly started: number;
}

/** A stage's step on the direct path: the same work its middleware does, around the same route. */
export interface DirectStep {
  /** Before the route, in list order. Throws an ApiError or a domain refusal to answer with it instead. */
  before?(request: DirectRequest): void;
  /** Once the answer is known and before it is written (durable mode's commit). */
  beforeAnswer?(request: DirectRequest, status: number): Promise<void> | undefined;
  /** Once the answer is written (the request log). */
  afterAnswer?(request: DirectRequest, status: number): void;
}

export interface Stage<E extends Env = Env> {
  readonly name: string;
  readonly middleware: MiddlewareHandler<E>;
  /** Absent: this stage runs only in the chain, so no request takes the direct path. */
  readonly direct?: DirectStep | undefined;
}

/** Mounts the stages' middleware on `app` for every path, in list order. */
export function useStages<E extends Env>(app: Hono<E>, stages: readonly Stage<E>[]): void {
  for (const stage of stages) app.use('*', stage.middleware);
}

/** The direct steps of `stages`, or undefined when one of them has none. */
export function directSteps(stages: readonly Stage[]): DirectStep[] | undefined {
  const steps: DirectStep[] = [];
  for (const stage of stages) {
    if (!stage.direct) return undefined;
    steps.push(stage.direct);
  }
  return steps;
}
