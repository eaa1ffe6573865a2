// What a check parses out of a response: the contract's type with every field optional at every
// depth. The implementation under test may omit or mistype anything, so a check reads a body through
// this type and tests each field before it relies on it; the field names and value types still come
// from the contract, so a renamed field fails to compile instead of silently reading `undefined`.
export type Received<T> = T extends readonly (infer Item)[] ? Received<Item>[] : T extends object ? { [K in keyof T]?: Received<T[K]> } : T;
