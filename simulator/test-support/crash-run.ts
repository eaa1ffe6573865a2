// The crash run of durable mode, shared by its test (simulator/runtime/persistence/crash.test.ts) and its benchmark
// (bench/durable.ts): a seeded random sequence of operations against `stablepay start --no-chains --state-dir` (or
// `--database-url`, a Postgres server), run
// as a child process that is SIGKILLed (one time in four SIGTERMed) at random points (between operations and in the middle of a request). After
// each restart the simulator's payments must equal the model of acknowledged operations (an operation whose answer
// the kill swallowed may have happened or not: its outcome is read back once). At the end every webhook event the
// final state implies must have reached the receiver exactly once, once the clock has passed the whole retry schedule
// with the receiver answering 2xx (before that drain, an event is delivered once or still pending).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { operationAroundKill } from './operation-around-kill.ts';

const BIN = fileURLToPath(new URL('../../bin/stablepay.js', import.meta.url));
export const KEY = 'pk_crashtest12345678';
const AUTH = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

export interface CrashRunOptions {
  operations: number;
  /** Probability of a kill after each operation (half of them land in the middle of a request). */
  killRate: number;
  seed: number;
  /** Durable mode on this Postgres server instead of a fresh --state-dir (the embedded database). */
  databaseUrl?: string;
}

export interface CrashRunResult {
  operations: number;
  acknowledged: number;
  /** Operations whose answer a kill swallowed (outcome read back after the restart). */
  unacknowledged: number;
  kills: number;
  /** Of the kills, how many were SIGTERM (a clean stop) rather than SIGKILL. */
  sigterms: number;
  /** Restarts after which the simulator's payments differed from the model (target 0). */
  stateMismatches: string[];
  payments: number;
  /** Events the final state implies. */
  events: number;
  /** Implied events never answered 2xx by the receiver by the end of the drain (target 0). */
  lostEvents: string[];
  /** Events answered 2xx twice for two different attempts: a retry after a recorded success (target 0). */
  duplicatedEvents: string[];
  /** Events whose attempt was in flight at a kill and went out again after the restart (same attempt). */
  resentInFlight: number;
  /** Restart times (ms, spawn to banner). */
  restartMs: number[];
}

export type Status = 'ACTIVE' | 'PROCESSING' | 'SUCCESSFUL' | 'FAILED' | 'EXPIRED' | 'CANCELLED';
interface ModelPayment {
  status: Status;
  expiresAt: number;
}

/** mulberry32: a small seeded PRNG, enough to make a run reproducible from its seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const EVENTS_OF: Record<Status, string[]> = {
  ACTIVE: [],
  PROCESSING: ['payment.processing'],
  SUCCESSFUL: ['payment.processing', 'payment.completed'],
  FAILED: ['payment.processing', 'payment.failed'],
  EXPIRED: ['payment.expired'],
  CANCELLED: ['payment.cancelled'],
};

export class Receiver {
  /** event:paymentId -> attempt instants answered 2xx. */
  readonly succeeded = new Map<string, string[]>();
  /** Every request in arrival order: its delivery, the attempt's virtual instant, when it arrived, the answer. */
  readonly requests: { deliveryId: string; key: string; instant: string; arrivedAt: number; status: number }[] = [];
  private readonly seen = new Set<string>();
  failFirst = true;
  /** While true every request is answered 503: a receiver that is down, then recovers. */
  outage = false;
  private server: Server | undefined;
  url = '';

  constructor(private readonly random: () => number) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const payload = JSON.parse(body) as { event: string; data?: { paymentId?: string } };
        const key = `${payload.event}:${payload.data?.paymentId ?? ''}`;
        const instant = String(req.headers['x-simulator-attempt-timestamp'] ?? '');
        const record = (status: number) =>
          this.requests.push({
            deliveryId: String(req.headers['x-service-delivery-id'] ?? ''),
            key,
            instant,
            arrivedAt: performance.now(),
            status,
          });
        if (this.outage) {
          record(503);
          res.writeHead(503).end();
          return;
        }
        // A quarter of events fail their first attempt, so retries are pending across kills.
        if (this.failFirst && !this.seen.has(key) && this.random() < 0.25) {
          this.seen.add(key);
          record(500);
          res.writeHead(500).end();
          return;
        }
        this.seen.add(key);
        record(200);
        this.succeeded.set(key, [...(this.succeeded.get(key) ?? []), instant]);
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

export interface Child {
  process: ChildProcess;
  base: string;
  exited: Promise<void>;
}

/** Where the child keeps its state: flags for `stablepay start`. */
export type StoreFlags = string[];

export async function startChild(store: StoreFlags): Promise<{ child: Child; ms: number }> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [BIN, 'start', '--no-chains', '--port', '0', '--quiet', '--no-demo-payment', '--api-key', KEY, ...store],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, STABLEPAY_API_KEY: '', STABLEPAY_STATE_DIR: '', STABLEPAY_DATABASE_URL: '' },
    },
  );
  let output = '';
  // STABLEPAY_CRASH_LOGS=<dir>: each child's output kept there, every chunk stamped with this process's clock (the
  // clock of the receiver's arrivals and of the kills), to tell afterwards which process did what.
  const logDir = process.env.STABLEPAY_CRASH_LOGS;
  if (logDir) {
    const file = join(logDir, `child-${child.pid}.log`);
    appendFileSync(file, `[${performance.now().toFixed(0)}] spawned ${store.join(' ')}\n`);
    const keep = (d: Buffer) => appendFileSync(file, `[${performance.now().toFixed(0)}] ${d.toString()}`);
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = await new Promise<string>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      const match = /Base URL\s+(\S+)/.exec(output);
      if (match && output.includes('Configure a webhook endpoint')) resolve(match[1] as string);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(() => reject(new Error(`the simulator exited before its banner:\n${output}`)));
  });
  return { child: { process: child, base, exited }, ms: performance.now() - started };
}

export async function kill(child: Child, signal: NodeJS.Signals): Promise<void> {
  child.process.kill(signal);
  await child.exited;
}

export async function call(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${base}${path}`, { method, headers: AUTH, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

export async function listAll(base: string): Promise<Map<string, { status: Status; expiresAt: number; externalId: string }>> {
  const all = new Map<string, { status: Status; expiresAt: number; externalId: string }>();
  let cursor: string | null = null;
  do {
    const page: { json: { data: { id: string; status: Status; expiresAt: string; externalId: string }[]; nextCursor: string | null } } =
      await call(base, 'GET', `/v1/payments?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    for (const p of page.json.data) all.set(p.id, { status: p.status, expiresAt: Date.parse(p.expiresAt), externalId: p.externalId });
    cursor = page.json.nextCursor;
  } while (cursor);
  return all;
}

export async function crashRun(options: CrashRunOptions): Promise<CrashRunResult> {
  const random = prng(options.seed);
  const dir = mkdtempSync(join(tmpdir(), 'stablepay-crash-'));
  const store: StoreFlags = options.databaseUrl ? ['--database-url', options.databaseUrl] : ['--state-dir', dir];
  const receiver = new Receiver(prng(options.seed + 1));
  await receiver.start();
  const model = new Map<string, ModelPayment>();
  /** externalIds of creates whose answer was lost, and payments whose cancel/pay answer was lost. */
  const uncertainCreates = new Set<string>();
  const uncertainPayments = new Set<string>();
  const result: CrashRunResult = {
    operations: 0,
    acknowledged: 0,
    unacknowledged: 0,
    kills: 0,
    sigterms: 0,
    stateMismatches: [],
    payments: 0,
    events: 0,
    lostEvents: [],
    duplicatedEvents: [],
    resentInFlight: 0,
    restartMs: [],
  };
  let modelNow = 0;
  let { child } = await startChild(store);
  try {
    const endpoint = await call(child.base, 'POST', '/v1/webhooks', { url: receiver.url });
    if (endpoint.status !== 201) throw new Error(`endpoint: ${endpoint.status}`);

    const expireModel = (now: number) => {
      for (const p of model.values()) if (p.status === 'ACTIVE' && p.expiresAt <= now) p.status = 'EXPIRED';
    };

    const restart = async (round: number) => {
      const started = await startChild(store);
      child = started.child;
      result.restartMs.push(started.ms);
      const clock = (await call(child.base, 'GET', '/control/v1/clock')).json as { now: string };
      const actualNow = Date.parse(clock.now);
      if (actualNow < modelNow)
        result.stateMismatches.push(`round ${round}: the clock went back (${clock.now} < ${new Date(modelNow).toISOString()})`);
      const actual = await listAll(child.base);
      // Operations the kill left unanswered: take what the simulator says, once.
      for (const [id, p] of actual) {
        if (!model.has(id) && uncertainCreates.has(p.externalId)) model.set(id, { status: p.status, expiresAt: p.expiresAt });
      }
      uncertainCreates.clear();
      for (const id of uncertainPayments) {
        const p = actual.get(id);
        const m = model.get(id);
        if (p && m) m.status = p.status;
      }
      uncertainPayments.clear();
      // Real time went on while the simulator was down: what expired meanwhile is expired.
      expireModel(actualNow);
      modelNow = Math.max(modelNow, actualNow);
      for (const [id, m] of model) {
        const p = actual.get(id);
        if (!p) result.stateMismatches.push(`round ${round}: acknowledged payment ${id} is missing`);
        else if (p.status !== m.status)
          result.stateMismatches.push(`round ${round}: payment ${id} is ${p.status}, the model says ${m.status}`);
      }
      for (const id of actual.keys()) if (!model.has(id)) result.stateMismatches.push(`round ${round}: payment ${id} was never created`);
    };

    for (let i = 0; i < options.operations; i += 1) {
      result.operations += 1;
      const ids = [...model.keys()];
      const pick = () => ids[Math.floor(random() * ids.length)] as string;
      const r = random();
      let op: () => Promise<{ status: number; json: any }>;
      let onAnswer: (answer: { status: number; json: any }) => void;
      let onLost: () => void;
      if (r < 0.45 || ids.length === 0) {
        const externalId = `op${i}`;
        op = () =>
          call(child.base, 'POST', '/v1/payments', { amount: String(1 + Math.floor(random() * 500)), currency: 'USD', externalId });
        onAnswer = (a) => {
          if (a.status === 201) model.set(a.json.id, { status: 'ACTIVE', expiresAt: Date.parse(a.json.expiresAt) });
        };
        onLost = () => uncertainCreates.add(externalId);
      } else if (r < 0.65) {
        const id = pick();
        op = () => call(child.base, 'DELETE', `/v1/payments/${id}`);
        onAnswer = (a) => {
          if (a.status === 200) (model.get(id) as ModelPayment).status = 'CANCELLED';
        };
        onLost = () => uncertainPayments.add(id);
      } else if (r < 0.85) {
        const id = pick();
        op = () => call(child.base, 'POST', `/control/v1/payments/${id}/pay`, { chainId: 8453, token: 'USDC' });
        onAnswer = (a) => {
          if (a.status === 200) (model.get(id) as ModelPayment).status = 'SUCCESSFUL';
        };
        onLost = () => uncertainPayments.add(id);
      } else {
        const ms = Math.floor(random() * 40 * 60_000);
        op = () => call(child.base, 'POST', '/control/v1/clock/advance', { ms });
        onAnswer = (a) => {
          if (a.status !== 200) return;
          modelNow = Math.max(modelNow, Date.parse(a.json.now));
          expireModel(modelNow);
        };
        // Expiries of an unanswered advance are read back like every other outcome.
        onLost = () => {
          for (const [id, p] of model) if (p.status === 'ACTIVE') uncertainPayments.add(id);
        };
      }
      const killNow = random() < options.killRate;
      const midRequest = killNow && random() < 0.5;
      // One stop in four is a SIGTERM (clean stop), the rest SIGKILL.
      const signal: NodeJS.Signals = killNow && random() < 0.25 ? 'SIGTERM' : 'SIGKILL';
      if (killNow && signal === 'SIGTERM') result.sigterms += 1;
      await operationAroundKill({
        op,
        onAnswer,
        onLost,
        kill: killNow ? () => kill(child, signal) : undefined,
        midRequest,
        random,
        counts: result,
      });
      if (killNow) {
        result.kills += 1;
        await restart(result.kills);
      }
    }

    Object.assign(result, await drainAndJudge([child.base], receiver));
  } finally {
    child.process.kill('SIGTERM');
    await child.exited;
    await receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

/** What the receiver got, judged against the final state once nothing is pending. */
export interface EventVerdict {
  payments: number;
  events: number;
  lostEvents: string[];
  duplicatedEvents: string[];
  resentInFlight: number;
}

/**
 * Drain: every first attempt now succeeds; move the clock past the whole retry schedule (through the first base),
 * wait until no base lists a pending delivery. Attempts go out after the advance answers (and after their record is
 * committed), so on a loaded machine the drain waits in real time, up to a minute, for the last ones; whatever is still
 * pending then counts as lost. Then every event the final state (read through the first base) implies must have been
 * answered 2xx by the receiver, once.
 */
/** What the simulator recorded of one payment's deliveries of one event (a judgement's evidence). */
async function recordedDeliveries(
  base: string,
  paymentId: string,
  event: string,
): Promise<{ id: string; status: string; attempts?: { statusCode: number | null; error: string | null }[] }[]> {
  const record = await call(base, 'GET', `/v1/webhooks/deliveries?paymentId=${paymentId}&limit=100`);
  return ((record.json?.data ?? []) as { id: string; event: string; status: string }[]).filter((d) => d.event === event);
}

/** A SIGKILL of the run: when the signal went and when the victim's exit was seen (performance.now()). */
export interface KillTime {
  sentAt: number;
  exitedAt: number;
}

/** One 2xx answer of the receiver to an event. */
export interface Answered {
  deliveryId: string;
  instant: string;
  arrivedAt: number;
}

/**
 * One event answered 2xx more than once: at-least-once after a kill, or a duplicate. Copies of one attempt (one
 * instant) are an attempt in flight at a kill sent again. Copies of one delivery at different instants are excused
 * only when a kill fell between each copy and the one before, the earlier arriving at most 5 s before the signal: its
 * sender died before recording the success, the taker of its lease sent the attempt again, the receiver failed that
 * copy and the retry schedule went on. Two deliveries of one event, or a second success without a kill between, are
 * duplicates.
 */
export function judgeRepeatedEvent(answered: Answered[], kills: KillTime[]): 'resent' | 'duplicated' {
  if (new Set(answered.map((a) => a.instant)).size === 1) return 'resent';
  if (new Set(answered.map((a) => a.deliveryId)).size > 1) return 'duplicated';
  const sorted = [...answered].sort((x, y) => x.arrivedAt - y.arrivedAt);
  const eachAfterKill = sorted.every((copy, n) => {
    if (n === 0) return true;
    const before = (sorted[n - 1] as Answered).arrivedAt;
    return kills.some((k) => before >= k.sentAt - 5_000 && before <= k.exitedAt + 1_000 && copy.arrivedAt >= k.sentAt);
  });
  return eachAfterKill ? 'resent' : 'duplicated';
}

export async function drainAndJudge(bases: string[], receiver: Receiver, kills: KillTime[] = []): Promise<EventVerdict> {
  const base = bases[0] as string;
  const verdict: EventVerdict = { payments: 0, events: 0, lostEvents: [], duplicatedEvents: [], resentInFlight: 0 };
  receiver.failFirst = false;
  receiver.outage = false;
  const drainUntil = performance.now() + 60_000;
  for (let step = 0; ; step += 1) {
    await call(base, 'POST', '/control/v1/clock/advance', { ms: 24 * 3_600_000 });
    let pending = 0;
    for (const b of bases) pending += (await call(b, 'GET', '/v1/webhooks/deliveries?status=pending&limit=1')).json.data.length;
    if (step >= 1 && pending === 0) break;
    if (performance.now() > drainUntil) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const final = await listAll(base);
  const pendingKeys = new Set<string>();
  let cursor: string | null = null;
  do {
    const page: { json: { data: { event: string; paymentId: string }[]; nextCursor: string | null } } = await call(
      base,
      'GET',
      `/v1/webhooks/deliveries?status=pending&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
    );
    for (const d of page.json.data) pendingKeys.add(`${d.event}:${d.paymentId}`);
    cursor = page.json.nextCursor;
  } while (cursor);
  verdict.payments = final.size;
  for (const [id, p] of final) {
    for (const event of EVENTS_OF[p.status]) {
      verdict.events += 1;
      const key = `${event}:${id}`;
      const instants = receiver.succeeded.get(key) ?? [];
      // After the drain nothing may still be pending: the receiver answers 2xx and the whole retry schedule has
      // passed, so a delivery left pending was stranded by a restart.
      if (instants.length === 0) {
        // Said with what the simulator recorded for it, so a rare loss can be told apart (no record, failed, ...).
        const mine = await recordedDeliveries(base, id, event);
        const recorded =
          mine.length === 0
            ? 'no delivery record'
            : mine
                .map(
                  (d) =>
                    `${d.status} after ${d.attempts?.length ?? 0} attempts (${(d.attempts ?? []).map((a) => a.statusCode ?? a.error).join(', ')})`,
                )
                .join('; ');
        verdict.lostEvents.push(`${key} (${pendingKeys.has(key) ? 'stranded pending; ' : ''}${recorded})`);
      }
      if (instants.length > 1) {
        const answered = receiver.requests.filter((r) => r.key === key && r.status === 200);
        if (judgeRepeatedEvent(answered, kills) === 'resent') verdict.resentInFlight += instants.length - 1;
        else {
          // Said with who sent what: the deliveries and arrival times of the 2xx answers, and what the simulator recorded.
          const copies = answered.map((r) => `${r.deliveryId}@${r.instant} arrived ${r.arrivedAt.toFixed(0)}`);
          const mine = (await recordedDeliveries(base, id, event)).map(
            (d) => `${d.id} ${d.status} after ${d.attempts?.length ?? 0} attempts`,
          );
          verdict.duplicatedEvents.push(`${key} (${instants.join(', ')}; 2xx: ${copies.join(', ')}; recorded: ${mine.join('; ')})`);
        }
      }
    }
  }
  return verdict;
}
