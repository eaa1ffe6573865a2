// `stablepay/client`: the merchant package @stablepay/client, for projects that installed the whole toolkit.
export * from '@stablepay/client';
