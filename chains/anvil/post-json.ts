// A JSON POST to a chain's JSON-RPC endpoint, answered with the parsed body. Plain http:// URLs (our Anvils, and
// most attached chains) go through node:http: fetch (undici) costs several times the CPU per request (a Request, a
// Response and web streams each time), which showed at start-up (about fifteen calls before the banner) and on
// every pass-through of the web3 proxy. Other URLs (https) keep fetch.
import { request } from 'node:http';

export function postJson(url: string, body: unknown): Promise<unknown> {
  const payload = JSON.stringify(body);
  if (!url.startsWith('http:')) {
    return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload }).then(
      (res) => res.json() as Promise<unknown>,
    );
  }
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
