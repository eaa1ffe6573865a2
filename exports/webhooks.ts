// `stablepay/webhooks`: the merchant package @stablepay/webhooks, for projects that installed the whole toolkit.
export * from '@stablepay/webhooks';
