// The server side of the suite's test checkout pages: for each mechanism, the wallet actions the page asks for, one
// after another, and what the service does with the answers. Every transaction is waited for and must succeed.
//   transaction       the customer's ordinary transaction moves the total to the splitter; the service splits it
//   approve-then-pay  approve(splitter, total), then splitter.pay(...): two ordinary transactions
//   permit-then-pay   an EIP-2612 permit (eth_signTypedData_v4), then splitter.payWithPermit(...) (USDC only)
//   user-operation    the service funds the customer's SimpleAccount (as the simulator's page does) and builds one
//                     ERC-4337 v0.7 user operation; the customer signs its hash (personal_sign); the service bundles it
//   never-settles     the customer sends a transaction that moves no money, and the page never completes
import {
  createClient,
  decodeEventLog,
  encodeFunctionData,
  http,
  keccak256,
  parseAbi,
  parseSignature,
  stringToHex,
  toHex,
  type Address,
  type Client,
  type Hex,
} from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { getCode, getGasPrice, getTransactionReceipt, readContract, sendTransaction } from 'viem/actions';
import { entryPoint07Abi, getUserOperationHash, toPackedUserOperation, type UserOperation } from 'viem/account-abstraction';

export type Mechanism = 'transaction' | 'approve-then-pay' | 'permit-then-pay' | 'user-operation' | 'never-settles';

export interface Recipient {
  address: Address;
  /** In the token's smallest unit. */
  units: bigint;
}

export interface TestCheckout {
  mechanism: Mechanism;
  chainId: number;
  token: 'USDC' | 'USDT';
  recipients: Recipient[];
  /** Fee fields the page passes with each eth_sendTransaction (absent: the wallet fills them from the chain). */
  fees?: { gasPrice?: bigint; maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint };
}

/** What the page does next. */
export type NextAction =
  | { kind: 'send'; tx: Record<string, string> }
  | { kind: 'signTypedData'; typedData: unknown }
  | { kind: 'personalSign'; message: Hex }
  | { kind: 'done'; txHash: Hex }
  | { kind: 'pending' };

export interface StepsContext {
  rpcUrl: string;
  tokenAddress: Address;
  splitter: Address;
  entryPoint: Address;
  accountFactory: Address;
  /** The service's own account: sends the split, funds smart accounts, bundles user operations. */
  service: PrivateKeyAccount;
}

export interface CheckoutRecord {
  /** Transactions the customer's wallet sent, in order. */
  customerTransactions: Hex[];
  /** The transaction that paid the recipients (its receipt is the settlement). */
  settlement: Hex | null;
  /** The customer's smart account (user operations). */
  smartAccount?: Address;
}

const TOKEN = parseAbi([
  'function transfer(address to, uint256 amount) returns (bool)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function nonces(address owner) view returns (uint256)',
  'function name() view returns (string)',
  'function version() view returns (string)',
]);
const SPLITTER = parseAbi([
  'function split(address token, bytes32 ref, address[] recipients, uint256[] amounts)',
  'function pay(address token, bytes32 ref, address[] recipients, uint256[] amounts)',
  'function payWithPermit(address token, bytes32 ref, address[] recipients, uint256[] amounts, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
]);
const FACTORY = parseAbi([
  'function getAddress(address owner, uint256 salt) view returns (address)',
  'function createAccount(address owner, uint256 salt) returns (address)',
]);
const ACCOUNT = parseAbi(['function executeBatch(address[] dest, uint256[] value, bytes[] func)']);

const hexFields = (fees: TestCheckout['fees']): Record<string, string> =>
  Object.fromEntries(Object.entries(fees ?? {}).map(([name, value]) => [name, toHex(value as bigint)]));

export async function waitForSuccess(client: Client, hash: Hex, what: string): Promise<bigint> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const receipt = await getTransactionReceipt(client, { hash }).catch(() => null);
    if (receipt) {
      if (receipt.status !== 'success') throw new Error(`${what}: transaction ${hash} reverted`);
      return receipt.blockNumber;
    }
    if (Date.now() > deadline) throw new Error(`${what}: no receipt for ${hash}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function serviceSends(client: Client, service: PrivateKeyAccount, to: Address, data: Hex, what: string): Promise<Hex> {
  const hash = await sendTransaction(client, {
    account: service,
    chain: null,
    type: 'legacy',
    gasPrice: await getGasPrice(client),
    to,
    data,
  } as never);
  await waitForSuccess(client, hash, what);
  return hash;
}

/** One checkout's steps; `next(result)` gets the wallet's answer to the previous action. */
export class CheckoutSteps {
  readonly record: CheckoutRecord = { customerTransactions: [], settlement: null };
  private step = 0;
  private readonly client: Client;
  private readonly ref: Hex;
  private userOperation: UserOperation<'0.7'> | undefined;
  private permitDeadline = 0n;

  constructor(
    readonly checkout: TestCheckout,
    private readonly context: StepsContext,
    id: string,
  ) {
    this.client = createClient({ transport: http(context.rpcUrl) });
    this.ref = keccak256(stringToHex(id));
  }

  private get total(): bigint {
    return this.checkout.recipients.reduce((sum, r) => sum + r.units, 0n);
  }

  private get recipientArgs(): [Address[], bigint[]] {
    return [this.checkout.recipients.map((r) => r.address), this.checkout.recipients.map((r) => r.units)];
  }

  private send(to: Address, data: Hex, value?: bigint): NextAction {
    return { kind: 'send', tx: { to, data, ...(value !== undefined ? { value: toHex(value) } : {}), ...hexFields(this.checkout.fees) } };
  }

  private async customerSent(result: unknown, what: string): Promise<Hex> {
    if (typeof result !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(result))
      throw new Error(`${what}: the wallet answered ${JSON.stringify(result)}, not a transaction hash`);
    this.record.customerTransactions.push(result as Hex);
    await waitForSuccess(this.client, result as Hex, what);
    return result as Hex;
  }

  async next(account: Address, result: unknown): Promise<NextAction> {
    const step = this.step++;
    const { tokenAddress, splitter } = this.context;
    const [recipients, amounts] = this.recipientArgs;
    switch (this.checkout.mechanism) {
      case 'transaction':
        if (step === 0)
          return this.send(tokenAddress, encodeFunctionData({ abi: TOKEN, functionName: 'transfer', args: [splitter, this.total] }));
        await this.customerSent(result, 'the customer moves the total to the splitter');
        return this.settle(
          await serviceSends(
            this.client,
            this.context.service,
            splitter,
            encodeFunctionData({ abi: SPLITTER, functionName: 'split', args: [tokenAddress, this.ref, recipients, amounts] }),
            'the service splits',
          ),
        );
      case 'approve-then-pay':
        if (step === 0)
          return this.send(tokenAddress, encodeFunctionData({ abi: TOKEN, functionName: 'approve', args: [splitter, this.total] }));
        if (step === 1) {
          await this.customerSent(result, 'approve');
          return this.send(
            splitter,
            encodeFunctionData({ abi: SPLITTER, functionName: 'pay', args: [tokenAddress, this.ref, recipients, amounts] }),
          );
        }
        return this.settle(await this.customerSent(result, 'pay'));
      case 'permit-then-pay':
        if (step === 0) return { kind: 'signTypedData', typedData: await this.permitTypedData(account) };
        if (step === 1) {
          const { v, r, s, yParity } = parseSignature(result as Hex);
          return this.send(
            splitter,
            encodeFunctionData({
              abi: SPLITTER,
              functionName: 'payWithPermit',
              args: [tokenAddress, this.ref, recipients, amounts, this.permitDeadline, Number(v ?? BigInt(27 + yParity)), r, s],
            }),
          );
        }
        return this.settle(await this.customerSent(result, 'pay with the permit'));
      case 'user-operation':
        if (step === 0) return { kind: 'personalSign', message: await this.prepareUserOperation(account) };
        return this.settle(await this.bundle(result as Hex));
      case 'never-settles':
        // It knows no chain to follow the transaction on, and takes no money whatever happens to it.
        if (step === 0) return { kind: 'send', tx: { to: account, value: '0x0' } };
        if (typeof result === 'string') this.record.customerTransactions.push(result as Hex);
        return { kind: 'pending' };
    }
  }

  private settle(hash: Hex): NextAction {
    this.record.settlement = hash;
    return { kind: 'done', txHash: hash };
  }

  private async permitTypedData(owner: Address) {
    const read = <T>(functionName: 'nonces' | 'name' | 'version', args: readonly unknown[] = []) =>
      readContract(this.client, { address: this.context.tokenAddress, abi: TOKEN, functionName, args } as never) as Promise<T>;
    const [nonce, name, version] = await Promise.all([read<bigint>('nonces', [owner]), read<string>('name'), read<string>('version')]);
    this.permitDeadline = BigInt(Math.floor(Date.now() / 1000) + 3600);
    // As a page sends it: quantities as decimal strings, the chain id as a number.
    return {
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        Permit: [
          { name: 'owner', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
        ],
      },
      primaryType: 'Permit',
      domain: { name, version, chainId: this.checkout.chainId, verifyingContract: this.context.tokenAddress },
      message: {
        owner,
        spender: this.context.splitter,
        value: this.total.toString(),
        nonce: nonce.toString(),
        deadline: this.permitDeadline.toString(),
      },
    };
  }

  /** The customer's SimpleAccount, funded with the total (and native coin for the prefund); returns the hash to sign. */
  private async prepareUserOperation(owner: Address): Promise<Hex> {
    const { accountFactory, entryPoint, tokenAddress, service } = this.context;
    const sender = (await readContract(this.client, {
      address: accountFactory,
      abi: FACTORY,
      functionName: 'getAddress',
      args: [owner, 0n],
    })) as Address;
    this.record.smartAccount = sender;
    const deployed = ((await getCode(this.client, { address: sender })) ?? '0x') !== '0x';
    await serviceSends(
      this.client,
      service,
      tokenAddress,
      encodeFunctionData({ abi: TOKEN, functionName: 'transfer', args: [sender, this.total] }),
      'fund the smart account',
    );
    await fetch(this.context.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setBalance', params: [sender, toHex(10n ** 17n)] }),
    });
    const nonce = (await readContract(this.client, {
      address: entryPoint,
      abi: entryPoint07Abi,
      functionName: 'getNonce',
      args: [sender, 0n],
    })) as bigint;
    const calls = this.checkout.recipients.map((r) =>
      encodeFunctionData({ abi: TOKEN, functionName: 'transfer', args: [r.address, r.units] }),
    );
    this.userOperation = {
      sender,
      nonce,
      ...(deployed
        ? {}
        : { factory: accountFactory, factoryData: encodeFunctionData({ abi: FACTORY, functionName: 'createAccount', args: [owner, 0n] }) }),
      callData: encodeFunctionData({
        abi: ACCOUNT,
        functionName: 'executeBatch',
        args: [calls.map(() => tokenAddress), calls.map(() => 0n), calls],
      }),
      callGasLimit: 200_000n + 60_000n * BigInt(calls.length),
      verificationGasLimit: 600_000n,
      preVerificationGas: 60_000n,
      maxFeePerGas: 1_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
      signature: '0x',
    };
    return getUserOperationHash({
      userOperation: this.userOperation,
      entryPointAddress: entryPoint,
      entryPointVersion: '0.7',
      chainId: this.checkout.chainId,
    });
  }

  /** handleOps with the signed operation; the operation itself must succeed (UserOperationEvent.success). */
  private async bundle(signature: Hex): Promise<Hex> {
    const operation = { ...this.userOperation!, signature };
    const { entryPoint, service } = this.context;
    const data = encodeFunctionData({
      abi: entryPoint07Abi,
      functionName: 'handleOps',
      args: [[toPackedUserOperation(operation)], service.address],
    });
    const hash = await serviceSends(this.client, service, entryPoint, data, 'bundle the user operation');
    const receipt = await getTransactionReceipt(this.client, { hash });
    for (const log of receipt.logs) {
      try {
        const event = decodeEventLog({ abi: entryPoint07Abi, data: log.data, topics: log.topics });
        if (event.eventName === 'UserOperationEvent' && !event.args.success)
          throw new Error(`the user operation ${event.args.userOpHash} failed inside handleOps`);
      } catch (error) {
        if ((error as Error).message.startsWith('the user operation')) throw error;
      }
    }
    return hash;
  }
}
