// The crash run of two replicas on one Postgres database (issue 28: "SIGKILL of either loses nothing acknowledged and
// no delivery"): two `stablepay start --no-chains --database-url … --delivery-lease-ms …` children, a seeded random
// mix of operations spread over both (creates, creates reusing an externalId, cancels, payments through the control
// API, clock advances through the control API, the webhook receiver failing a first attempt or down for a while and
// recovering), and SIGKILLs of A or B at random points (between operations and in the middle of a request to the
// victim). The survivor serves alone for a few operations, then the victim is restarted. After every restart both
// replicas must serve exactly the model of acknowledged operations. At the end (after a drain) every event the final
// state implies reached the receiver, once; and no delivery got one attempt twice, except an attempt that reached
// the receiver before a kill and went out again after it (its sender died before recording it: at-least-once).
import { type Child, type Status, call, drainAndJudge, kill, listAll, prng, Receiver, startChild } from './crash-run.ts';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { operationAroundKill } from './operation-around-kill.ts';

/** STABLEPAY_CRASH_LOGS=<dir>: the run's kills and the receiver's requests kept beside each child's log (crash-run.ts). */
const logDir = process.env.STABLEPAY_CRASH_LOGS;
const logRun = (line: string) => {
  if (logDir) appendFileSync(join(logDir, 'run.log'), `[${performance.now().toFixed(0)}] ${line}\n`);
};

export interface ReplicaCrashRunOptions {
  operations: number;
  /** Probability of a SIGKILL after each operation (half of those aimed at a replica serving the operation land mid-request). */
  killRate: number;
  seed: number;
  /** One database of a Postgres server, empty or made by the simulator. */
  databaseUrl: string;
  /** --delivery-lease-ms of both replicas: how soon a killed replica's deliveries are taken over. */
  leaseMs: number;
}

export interface ReplicaCrashRunResult {
  operations: number;
  acknowledged: number;
  unacknowledged: number;
  kills: { a: number; b: number };
  /** After a restart, a replica whose payments differed from the model (target 0). */
  stateMismatches: string[];
  /** A create whose answer contradicts the model's live externalIds: 201 beside a live holder, 409 with none (target 0). */
  externalIdViolations: string[];
  externalIdReuses: number;
  receiverOutages: number;
  payments: number;
  events: number;
  lostEvents: string[];
  /** Events answered 2xx twice that no kill explains (crash-run.ts, judgeRepeatedEvent; target 0). */
  duplicatedEvents: string[];
  /** Events answered 2xx again because a kill took their sender before it recorded the success. */
  resentInFlight: number;
  /** One attempt of one delivery (same virtual instant) received twice with no kill between the two (target 0). */
  duplicatedAttempts: string[];
  /** One attempt received twice with a kill between: its sender died before recording it. */
  resentAfterKill: number;
  /** Webhook requests the receiver got in all. */
  webhookRequests: number;
  restartMs: number[];
}

const LIVE: Status[] = ['ACTIVE', 'PROCESSING', 'SUCCESSFUL'];

interface ModelPayment {
  status: Status;
  expiresAt: number;
  externalId: string;
}

export async function replicaCrashRun(options: ReplicaCrashRunOptions): Promise<ReplicaCrashRunResult> {
  const random = prng(options.seed);
  const store = ['--database-url', options.databaseUrl, '--delivery-lease-ms', String(options.leaseMs)];
  const receiver = new Receiver(prng(options.seed + 1));
  await receiver.start();
  const model = new Map<string, ModelPayment>();
  const uncertainCreates = new Set<string>();
  const uncertainPayments = new Set<string>();
  /** Each kill: when the signal went and when the exit was seen (the receiver may read the victim's last request after it). */
  const kills: { sentAt: number; exitedAt: number }[] = [];
  const result: ReplicaCrashRunResult = {
    operations: 0,
    acknowledged: 0,
    unacknowledged: 0,
    kills: { a: 0, b: 0 },
    stateMismatches: [],
    externalIdViolations: [],
    externalIdReuses: 0,
    receiverOutages: 0,
    payments: 0,
    events: 0,
    lostEvents: [],
    duplicatedEvents: [],
    resentInFlight: 0,
    duplicatedAttempts: [],
    resentAfterKill: 0,
    webhookRequests: 0,
    restartMs: [],
  };
  let modelNow = 0;
  /** performance.now() when modelNow was read from the service. */
  let modelNowReadAt = performance.now();
  // One after the other, as a second replica joins a running one (migrations, the default merchant and its key once).
  const replicas: { name: 'a' | 'b'; child: Child | undefined }[] = [
    { name: 'a', child: (await startChild(store)).child },
    { name: 'b', child: undefined },
  ];
  let restartIn = 0;
  try {
    (replicas[1] as { child: Child | undefined }).child = (await startChild(store)).child;
    const first = replicas[0]?.child as Child;
    const endpoint = await call(first.base, 'POST', '/v1/webhooks', { url: receiver.url });
    if (endpoint.status !== 201) throw new Error(`endpoint: ${endpoint.status}`);
    modelNow = Date.parse(((await call(first.base, 'GET', '/control/v1/clock')).json as { now: string }).now);
    modelNowReadAt = performance.now();

    const expireModel = (now: number) => {
      for (const p of model.values()) if (p.status === 'ACTIVE' && p.expiresAt <= now) p.status = 'EXPIRED';
    };

    /** Both replicas serve the model: read the clock and every payment through each. */
    const verifyBoth = async (round: number) => {
      for (const replica of replicas) {
        const base = (replica.child as Child).base;
        const clock = (await call(base, 'GET', '/control/v1/clock')).json as { now: string };
        const actualNow = Date.parse(clock.now);
        if (actualNow < modelNow)
          result.stateMismatches.push(
            `round ${round} (${replica.name}): the clock went back (${clock.now} < ${new Date(modelNow).toISOString()})`,
          );
        const actual = await listAll(base);
        // A payment due between the clock read and the list expired on the way (real time moves the clock too).
        const afterList = Date.parse(((await call(base, 'GET', '/control/v1/clock')).json as { now: string }).now);
        for (const [id, m] of model)
          if (m.status === 'ACTIVE' && m.expiresAt <= afterList && actual.get(id)?.status === 'EXPIRED') m.status = 'EXPIRED';
        for (const [id, p] of actual)
          if (!model.has(id) && uncertainCreates.has(p.externalId))
            model.set(id, { status: p.status, expiresAt: p.expiresAt, externalId: p.externalId });
        for (const id of uncertainPayments) {
          const p = actual.get(id);
          const m = model.get(id);
          if (p && m) m.status = p.status;
        }
        // Uncertain outcomes are taken from the first replica read, then must match on the second.
        uncertainCreates.clear();
        uncertainPayments.clear();
        expireModel(actualNow);
        if (actualNow >= modelNow) {
          modelNow = actualNow;
          modelNowReadAt = performance.now();
        }
        for (const [id, m] of model) {
          const p = actual.get(id);
          if (!p) result.stateMismatches.push(`round ${round} (${replica.name}): acknowledged payment ${id} is missing`);
          else if (p.status !== m.status)
            result.stateMismatches.push(`round ${round} (${replica.name}): payment ${id} is ${p.status}, the model says ${m.status}`);
        }
        for (const id of actual.keys())
          if (!model.has(id)) result.stateMismatches.push(`round ${round} (${replica.name}): payment ${id} was never created`);
      }
    };

    for (let i = 0; i < options.operations; i += 1) {
      result.operations += 1;
      const alive = replicas.filter((r) => r.child);
      const target = alive[Math.floor(random() * alive.length)] as (typeof replicas)[number];
      const base = (target.child as Child).base;
      const ids = [...model.keys()];
      const pick = () => ids[Math.floor(random() * ids.length)] as string;
      const r = random();
      let op: () => Promise<{ status: number; json: any }>;
      let onAnswer: (answer: { status: number; json: any }) => void;
      let onLost: () => void;
      let what = '';
      if (r < 0.45 || ids.length === 0) {
        // A new externalId, or (one create in five) the externalId of a payment the run made before.
        const reuse = ids.length > 0 && random() < 0.2;
        const externalId = reuse ? (model.get(pick()) as ModelPayment).externalId : `op${i}`;
        const holders = [...model.values()].filter((p) => p.externalId === externalId);
        // Judged only when the model knows every payment of that externalId for sure.
        const certain =
          !uncertainCreates.has(externalId) && [...model].every(([id, p]) => p.externalId !== externalId || !uncertainPayments.has(id));
        if (reuse) result.externalIdReuses += 1;
        what = `create ${externalId}`;
        op = () => call(base, 'POST', '/v1/payments', { amount: String(1 + Math.floor(random() * 500)), currency: 'USD', externalId });
        onAnswer = (a) => {
          // The service's clock ran on in real time since the model read it: an ACTIVE holder due by now may be expired.
          const latestNow = modelNow + (performance.now() - modelNowReadAt) + 1_000;
          const surelyLive = holders.some(
            (p) => p.status === 'PROCESSING' || p.status === 'SUCCESSFUL' || (p.status === 'ACTIVE' && p.expiresAt > latestNow),
          );
          const maybeLive = holders.some((p) => LIVE.includes(p.status));
          if (a.status === 201) model.set(a.json.id, { status: 'ACTIVE', expiresAt: Date.parse(a.json.expiresAt), externalId });
          if (!certain) return;
          if (a.status === 201 && surelyLive)
            result.externalIdViolations.push(`op ${i} (${target.name}): 201 for ${externalId}, which a live payment holds`);
          else if (a.status === 409 && !maybeLive)
            result.externalIdViolations.push(`op ${i} (${target.name}): 409 for ${externalId}, which no live payment holds`);
          else if (a.status !== 201 && a.status !== 409)
            result.externalIdViolations.push(`op ${i} (${target.name}): create answered ${a.status}`);
        };
        onLost = () => uncertainCreates.add(externalId);
      } else if (r < 0.65) {
        const id = pick();
        what = `cancel ${id}`;
        op = () => call(base, 'DELETE', `/v1/payments/${id}`);
        onAnswer = (a) => {
          if (a.status === 200) (model.get(id) as ModelPayment).status = 'CANCELLED';
        };
        onLost = () => uncertainPayments.add(id);
      } else if (r < 0.82) {
        const id = pick();
        what = `pay ${id}`;
        op = () => call(base, 'POST', `/control/v1/payments/${id}/pay`, { chainId: 8453, token: 'USDC' });
        onAnswer = (a) => {
          if (a.status === 200) (model.get(id) as ModelPayment).status = 'SUCCESSFUL';
        };
        onLost = () => uncertainPayments.add(id);
      } else if (r < 0.95) {
        const ms = Math.floor(random() * 40 * 60_000);
        what = `advance ${ms} ms`;
        op = () => call(base, 'POST', '/control/v1/clock/advance', { ms });
        onAnswer = (a) => {
          if (a.status !== 200) return;
          if (Date.parse(a.json.now) >= modelNow) {
            modelNow = Date.parse(a.json.now);
            modelNowReadAt = performance.now();
          }
          expireModel(modelNow);
        };
        onLost = () => {
          for (const [id, p] of model) if (p.status === 'ACTIVE') uncertainPayments.add(id);
        };
      } else {
        // The receiver goes down (every attempt 503) or comes back.
        receiver.outage = !receiver.outage;
        what = `receiver ${receiver.outage ? 'down' : 'up'}`;
        if (receiver.outage) result.receiverOutages += 1;
        op = () => call(base, 'GET', '/v1/webhooks/deliveries?status=pending&limit=1');
        onAnswer = () => undefined;
        onLost = () => undefined;
      }
      // A kill only while both serve; the victim is restarted after 0 to 3 operations served by the other alone.
      const killNow = restartIn === 0 && alive.length === 2 && random() < options.killRate;
      const victim = killNow ? (replicas[random() < 0.5 ? 0 : 1] as (typeof replicas)[number]) : undefined;
      const midRequest = victim === target && random() < 0.5;
      const stop = async () => {
        const child = victim?.child as Child;
        const sentAt = performance.now();
        await kill(child, 'SIGKILL');
        kills.push({ sentAt, exitedAt: performance.now() });
        logRun(
          `op ${i}: SIGKILL ${victim?.name} (pid ${child.process.pid}, ${midRequest ? 'mid-request' : 'between operations'}) sent ${sentAt.toFixed(0)}`,
        );
        (victim as (typeof replicas)[number]).child = undefined;
        result.kills[(victim as (typeof replicas)[number]).name] += 1;
        restartIn = 1 + Math.floor(random() * 4);
      };
      const logged = (answer: (a: { status: number; json: any }) => void) => (a: { status: number; json: any }) => {
        logRun(`op ${i} (${target.name}): ${what} -> ${a.status}${a.json?.id ? ` ${a.json.id}` : ''}`);
        answer(a);
      };
      if (logDir) onAnswer = logged(onAnswer);
      await operationAroundKill({ op, onAnswer, onLost, kill: victim ? stop : undefined, midRequest, random, counts: result });
      if (restartIn > 0) {
        restartIn -= 1;
        if (restartIn === 0) {
          const down = replicas.find((x) => !x.child) as (typeof replicas)[number];
          const started = await startChild(store);
          down.child = started.child;
          logRun(`op ${i}: ${down.name} restarted as pid ${started.child.process.pid}`);
          result.restartMs.push(started.ms);
          await verifyBoth(kills.length);
        }
      }
    }
    if (restartIn > 0) {
      const down = replicas.find((x) => !x.child) as (typeof replicas)[number];
      down.child = (await startChild(store)).child;
      await verifyBoth(kills.length);
    }

    Object.assign(
      result,
      await drainAndJudge(
        replicas.map((x) => (x.child as Child).base),
        receiver,
        kills,
      ),
    );
    // Each attempt once: per delivery, an attempt's instant seen twice needs a kill between its two arrivals.
    result.webhookRequests = receiver.requests.length;
    if (logDir) writeFileSync(join(logDir, 'requests.json'), JSON.stringify(receiver.requests, null, 1));
    const byAttempt = new Map<string, number[]>();
    for (const request of receiver.requests) {
      const key = `${request.deliveryId} ${request.key} @${request.instant}`;
      byAttempt.set(key, [...(byAttempt.get(key) ?? []), request.arrivedAt]);
    }
    for (const [key, arrivals] of byAttempt)
      for (let n = 1; n < arrivals.length; n += 1) {
        const before = arrivals[n - 1] as number;
        const after = arrivals[n] as number;
        // The first copy went out before the victim died (read here up to a second after its exit was seen), the
        // second after the kill: the victim never recorded the attempt.
        if (kills.some((k) => before <= k.exitedAt + 1_000 && after >= k.sentAt)) result.resentAfterKill += 1;
        else result.duplicatedAttempts.push(`${key} received ${arrivals.length} times, ${Math.round(after - before)} ms apart`);
      }
  } finally {
    for (const replica of replicas)
      if (replica.child) {
        replica.child.process.kill('SIGTERM');
        await replica.child.exited;
      }
    await receiver.stop();
  }
  return result;
}
