// File generated from openapi.yaml by scripts/generate-types.mjs. Do not edit.
export interface paths {
    "/v1/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List payments
         * @description Cursor-paginated list of the merchant's payments in the retrieve view. Ordering (newest
         *     first) and the `status` / `externalId` filters are assumed.
         */
        get: operations["listPayments"];
        put?: never;
        /**
         * Create a payment
         * @description Creates a payment for a fiat amount and returns its create view, including the hosted
         *     `paymentUrl`. No `payment.created` event is emitted for a create made with an API key.
         */
        post: operations["createPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Payment identifier (UUID).
                 * @example 5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b
                 */
                id: components["parameters"]["PaymentId"];
            };
            cookie?: never;
        };
        /**
         * Retrieve a payment
         * @description Returns the full payment (merchant view). Chain, token, rate, token amounts, gasActual,
         *     txHash, error and paidAt are filled in as the payment progresses. Polling this operation is
         *     an alternative to consuming webhooks.
         */
        get: operations["getPayment"];
        put?: never;
        post?: never;
        /**
         * Cancel a payment
         * @description Cancels an ACTIVE payment and returns it with status CANCELLED; its `paymentUrl` stops
         *     accepting transactions and a `payment.cancelled` event is sent. Any other status gives 400.
         *     The 200 status code is assumed (the specification says only that the updated payment is
         *     returned).
         */
        delete: operations["cancelPayment"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the webhook endpoint
         * @description Returns the merchant's webhook endpoint (one per merchant). Record shape and the 404 when none is configured are assumed.
         */
        get: operations["getWebhookEndpoint"];
        /**
         * Update the webhook endpoint
         * @description Changes the URL and/or the enabled flag of the existing endpoint (at least one of them). Assumed shape.
         */
        put: operations["updateWebhookEndpoint"];
        /**
         * Configure the webhook endpoint
         * @description Configures the merchant's webhook endpoint. The response carries the signing secret, shown
         *     only this once. A merchant has at most one endpoint; creating a second gives 409 (assumed).
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/regenerate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the webhook secret
         * @description Replaces the signing secret; the new secret is shown only in this response. Response shape and the 404 are assumed.
         */
        post: operations["regenerateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event
         * @description Queues a `test` event (no `data` field) to the configured endpoint and returns the delivery
         *     record. The specification leaves open whether an API key may do this; we allow it
         *     (assumed). A disabled endpoint gives 409 and nothing is recorded (assumed).
         */
        post: operations["sendTestWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Inspect deliveries
         * @description Cursor-paginated delivery records, newest first, with their attempts. Record shape and filters are assumed.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys
         * @description Cursor-paginated API-key records (never the key itself). Record shape assumed.
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Create an API key
         * @description Creates a `pk_` key, optionally restricted to an IP whitelist, expiring after 30 days up to
         *     never. The key itself appears only in this response. Request and record shapes are assumed;
         *     409 when the merchant's key limit is reached is listed by the specification.
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description API key record id (not the key).
                 * @example 0c8e4b7a-2f1d-4c6e-9b3a-7d5f1e2c4a60
                 */
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description Revokes the key; requests made with it afterwards get 401. Response shape and status code are assumed.
         */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Payment summary
         * @description Payment counts by status and volumes split by currency, stablecoin and chain for a period (default the last 30 days). Shape assumed.
         */
        get: operations["getAnalytics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * 30-day CSV export
         * @description RFC 4180 CSV (CRLF line ends) of the payments created in the last 30 days, newest first,
         *     with a fixed header row. Columns are assumed.
         */
        get: operations["exportAnalytics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Settlement ledger
         * @description Cursor-paginated ledger, one record per SUCCESSFUL payment, newest first. Record shape assumed.
         */
        get: operations["listTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/web3/{chainId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description One of the supported chain IDs; any other gives 404 (assumed).
                 * @example 8453
                 */
                chainId: number;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * JSON-RPC proxy
         * @description JSON-RPC 2.0 pass-through (single request or batch) that powers the checkout flow; it
         *     carries `eth_sendUserOperation`. Accepts either an API key or a checkout token (`ct_...`)
         *     issued by the hosted page for one payment, both as `Authorization: Bearer`. JSON-RPC
         *     failures are reported inside an HTTP 200 body: malformed JSON -32700, invalid request
         *     -32600, unknown method -32601, refused method -32000 naming the method. Only what a
         *     checkout needs is forwarded: read-only `eth_*`, `net_version`, `web3_clientVersion` and the
         *     ERC-4337 methods; `anvil_*`, `evm_*`, `hardhat_*`, `debug_*`, `personal_*`, `admin_*`,
         *     `miner_*`, `eth_sendTransaction`, `eth_sendRawTransaction` and `eth_sign*` are refused.
         */
        post: operations["web3Rpc"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payouts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Payout identifier, as carried by the payout events.
                 * @example 9d4c2b1a-8e7f-4a6b-9c5d-3e2f1a0b9c8d
                 */
                id: string;
            };
            cookie?: never;
        };
        /**
         * Retrieve a payout
         * @description Full payout details, as referred to by the payout events. Shape assumed.
         */
        get: operations["getPayout"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "payment.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.created
         * @description A payment link was created in the dashboard. Never sent for payments created with an API key. Sent as an HTTP POST with a JSON body to the merchant's webhook endpoint, signed
         *     with the webhook secret (see the headers). Any 2xx answer within 10 seconds
         *     acknowledges it; otherwise it is retried (7 attempts in total).
         */
        post: operations["onPaymentCreated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.processing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.processing
         * @description The customer initiated the payment (chose chain and token and submitted the transaction). Sent as an HTTP POST with a JSON body to the merchant's webhook endpoint, signed
         *     with the webhook secret (see the headers). Any 2xx answer within 10 seconds
         *     acknowledges it; otherwise it is retried (7 attempts in total).
         */
        post: operations["onPaymentProcessing"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.completed
         * @description The payment was confirmed on-chain. Sent as an HTTP POST with a JSON body to the merchant's webhook endpoint, signed
         *     with the webhook secret (see the headers). Any 2xx answer within 10 seconds
         *     acknowledges it; otherwise it is retried (7 attempts in total).
         */
        post: operations["onPaymentCompleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.failed
         * @description The payment failed (transaction reverted or bundler error). Sent as an HTTP POST with a JSON body to the merchant's webhook endpoint, signed
         *     with the webhook secret (see the headers). Any 2xx answer within 10 seconds
         *     acknowledges it; otherwise it is retried (7 attempts in total).
         */
        post: operations["onPaymentFailed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.expired": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.expired
         * @description The payment expired before completion. Sent as an HTTP POST with a JSON body to the merchant's webhook endpoint, signed
         *     with the webhook secret (see the headers). Any 2xx answer within 10 seconds
         *     acknowledges it; otherwise it is retried (7 attempts in total).
         */
        post: operations["onPaymentExpired"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.cancelled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.cancelled
         * @description The payment was cancelled. Sent as an HTTP POST with a JSON body to the merchant's webhook endpoint, signed
         *     with the webhook secret (see the headers). Any 2xx answer within 10 seconds
         *     acknowledges it; otherwise it is retried (7 attempts in total).
         */
        post: operations["onPaymentCancelled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payout.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payout.created
         * @description A payout was created in the dashboard. Never sent for payouts created with an API key. Sent as an HTTP POST with a JSON body to the merchant's webhook endpoint, signed
         *     with the webhook secret (see the headers). Any 2xx answer within 10 seconds
         *     acknowledges it; otherwise it is retried (7 attempts in total).
         */
        post: operations["onPayoutCreated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payout.processing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payout.processing
         * @description The payer initiated the payout. Sent as an HTTP POST with a JSON body to the merchant's webhook endpoint, signed
         *     with the webhook secret (see the headers). Any 2xx answer within 10 seconds
         *     acknowledges it; otherwise it is retried (7 attempts in total).
         */
        post: operations["onPayoutProcessing"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payout.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payout.completed
         * @description The payout was confirmed on-chain. Sent as an HTTP POST with a JSON body to the merchant's webhook endpoint, signed
         *     with the webhook secret (see the headers). Any 2xx answer within 10 seconds
         *     acknowledges it; otherwise it is retried (7 attempts in total).
         */
        post: operations["onPayoutCompleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payout.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payout.failed
         * @description The payout failed (transaction error). Sent as an HTTP POST with a JSON body to the merchant's webhook endpoint, signed
         *     with the webhook secret (see the headers). Any 2xx answer within 10 seconds
         *     acknowledges it; otherwise it is retried (7 attempts in total).
         */
        post: operations["onPayoutFailed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payout.expired": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payout.expired
         * @description The payout expired before completion. Sent as an HTTP POST with a JSON body to the merchant's webhook endpoint, signed
         *     with the webhook secret (see the headers). Any 2xx answer within 10 seconds
         *     acknowledges it; otherwise it is retried (7 attempts in total).
         */
        post: operations["onPayoutExpired"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payout.cancelled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payout.cancelled
         * @description The payout was cancelled. Sent as an HTTP POST with a JSON body to the merchant's webhook endpoint, signed
         *     with the webhook secret (see the headers). Any 2xx answer within 10 seconds
         *     acknowledges it; otherwise it is retried (7 attempts in total).
         */
        post: operations["onPayoutCancelled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    test: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * test
         * @description A test event (dashboard action, or `POST /v1/webhooks/test`). Carries only `event` and `timestamp`. Sent as an HTTP POST with a JSON body to the merchant's webhook endpoint, signed
         *     with the webhook secret (see the headers). Any 2xx answer within 10 seconds
         *     acknowledges it; otherwise it is retried (7 attempts in total).
         */
        post: operations["onTestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * @description Supported chain: 1 Ethereum, 42161 Arbitrum One, 8453 Base, 137 Polygon, 56 BNB Smart Chain.
         * @enum {integer}
         */
        ChainId: 1 | 42161 | 8453 | 137 | 56;
        /**
         * @description Stablecoin symbol.
         * @enum {string}
         */
        Token: "USDC" | "USDT";
        /**
         * @description One of the 14 supported fiat currencies. JPY, IDR and VND are zero-decimal.
         * @enum {string}
         */
        Currency: "AED" | "ARS" | "BRL" | "EUR" | "GBP" | "IDR" | "ILS" | "JPY" | "MXN" | "NGN" | "PHP" | "THB" | "USD" | "VND";
        /**
         * @description ACTIVE (created, waiting for the customer; initial), PROCESSING (customer chose chain and
         *     token and submitted), SUCCESSFUL (confirmed on-chain), FAILED (reverted or bundler error),
         *     EXPIRED (expiresAt reached without completion), CANCELLED (cancelled by the merchant).
         *     Transitions only move forward.
         * @enum {string}
         */
        PaymentStatus: "ACTIVE" | "PROCESSING" | "SUCCESSFUL" | "FAILED" | "EXPIRED" | "CANCELLED";
        /**
         * Format: uuid
         * @description Identifier (UUID string).
         */
        Uuid: string;
        /**
         * Format: date-time
         * @description ISO 8601 date-time in UTC with millisecond precision and a trailing Z.
         */
        Timestamp: string;
        /**
         * Format: date-time
         * @description ISO 8601 date-time in UTC with millisecond precision and a trailing Z, or null.
         */
        NullableTimestamp: string | null;
        /**
         * @description Fiat amount as a decimal string with 0-2 decimal places (forms like `100`, `100.5`,
         *     `100.00`), at most 1,000,000,000,000 (`x-maximum`). No leading zeros, sign or exponent
         *     (grammar assumed).
         */
        FiatAmount: string;
        /** @description Non-negative decimal string. */
        DecimalString: string;
        /** @description Amount in whole token units as a decimal string (six decimals, assumed). */
        TokenAmount: string & unknown;
        /** @description Amount in whole token units as a decimal string (six decimals, assumed), or null. */
        NullableTokenAmount: ((string & unknown) | null) & unknown;
        /** @description Locked rate, token units per 1 unit of fiat, as a decimal string (six decimals, assumed). */
        ExchangeRate: string & unknown;
        /** @description EVM address, `0x` and 40 hex digits; mixed case must be a valid EIP-55 checksum (format assumed). */
        Address: string;
        /** @description On-chain transaction hash (`0x` and 64 hex digits, format assumed), or null. */
        TxHash: string | null;
        /** @description A seller split as returned; `amount` is the seller's amount after its share of the service fee. */
        Seller: {
            address: components["schemas"]["Address"];
            amount: components["schemas"]["FiatAmount"];
        };
        /** @description A seller split in a create request; `amount` is the seller's gross amount (greater than zero, assumed). */
        SellerInput: {
            address: components["schemas"]["Address"];
            /** @description Fiat amount with 0-2 decimal places. */
            amount: string & unknown;
        };
        /** @description Failure details of a FAILED payment. `source` values and `code` values are assumed. */
        PaymentFailure: {
            /**
             * @description Machine-readable code, e.g. TRANSACTION_REVERTED, USER_OPERATION_REJECTED, INSUFFICIENT_FUNDS (assumed values).
             * @example TRANSACTION_REVERTED
             */
            code: string;
            /** @enum {string} */
            source: "chain" | "bundler" | "service";
            message: string;
        };
        /**
         * @description A payment in the retrieve (merchant) view: GET and DELETE responses and list items. Every
         *     field is present as a key (nullable fields as null until they apply): that presence is
         *     assumed for the keys listed in `x-assumed-required`; the specification marks them optional
         *     or present from a later stage. Closing the shape (`additionalProperties: false`) is ours too:
         *     the specification says "carries only" for the create view alone, so an extra field here is
         *     an assumed finding, never a documented one.
         */
        Payment: {
            id: components["schemas"]["Uuid"];
            status: components["schemas"]["PaymentStatus"];
            /** @description Original fiat amount, echoed as sent (echo assumed). */
            amount: components["schemas"]["FiatAmount"];
            currency: components["schemas"]["Currency"];
            /** @description Payment title. */
            title: string | null;
            /** @description Merchant's own reference. */
            externalId: string | null;
            /** @description Allowed chain IDs, exactly as requested (default all supported chains). */
            acceptedChains: components["schemas"]["ChainId"][];
            /** @description Allowed token symbols, exactly as requested (default all supported tokens). */
            acceptedTokens: components["schemas"]["Token"][];
            /** @description The service's 0.5 % fee in fiat, formatted with the currency's minor units (format assumed). */
            serviceFee: components["schemas"]["FiatAmount"];
            /** @description The merchant's net amount in fiat. */
            merchantFee: components["schemas"]["FiatAmount"];
            /** @description Seller splits (amounts after fee); null when there are none. */
            sellers: components["schemas"]["Seller"][] | null;
            /**
             * Format: uri
             * @description Hosted payment page: `{pay_url}/p/<payment_id>`.
             */
            paymentUrl: string;
            /** @description The chain the customer used; set when the customer initiates. */
            chainId: components["schemas"]["ChainId"] | null;
            /** @description The token the customer used; set when the customer initiates. */
            token: components["schemas"]["Token"] | null;
            /** @description Locked fiat-to-token rate; set when the customer initiates. */
            exchangeRate: components["schemas"]["ExchangeRate"] | null;
            /** @description Total amount in token units; set when the customer initiates. */
            amountToken: components["schemas"]["NullableTokenAmount"];
            /** @description Service fee in token units; set when the customer initiates. */
            serviceFeeToken: components["schemas"]["NullableTokenAmount"];
            /** @description Merchant fee in token units; set when the customer initiates. */
            merchantFeeToken: components["schemas"]["NullableTokenAmount"];
            /** @description Actual gas fee paid, in the selected token; set on confirmation. */
            gasActual: components["schemas"]["NullableTokenAmount"];
            /** @description On-chain transaction hash; set after payment. */
            txHash: components["schemas"]["TxHash"];
            /** @description Failure details when FAILED, otherwise null. */
            error: components["schemas"]["PaymentFailure"] | null;
            expiresAt: components["schemas"]["Timestamp"];
            /** @description Completion time; set when SUCCESSFUL. */
            paidAt: components["schemas"]["NullableTimestamp"];
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
        } & (unknown & unknown & unknown & unknown);
        /**
         * @description The create (201) view: exactly these 14 fields. `title`, `externalId` and `sellers` may be
         *     absent or null per the specification; we always send them (null when not given, assumed).
         */
        PaymentCreateView: {
            id: components["schemas"]["Payment"]["id"];
            /**
             * @description Always ACTIVE in the create view.
             * @constant
             */
            status: "ACTIVE";
            amount: components["schemas"]["Payment"]["amount"];
            currency: components["schemas"]["Payment"]["currency"];
            title: components["schemas"]["Payment"]["title"];
            externalId: components["schemas"]["Payment"]["externalId"];
            acceptedChains: components["schemas"]["Payment"]["acceptedChains"];
            acceptedTokens: components["schemas"]["Payment"]["acceptedTokens"];
            serviceFee: components["schemas"]["Payment"]["serviceFee"];
            merchantFee: components["schemas"]["Payment"]["merchantFee"];
            sellers: components["schemas"]["Payment"]["sellers"];
            paymentUrl: components["schemas"]["Payment"]["paymentUrl"];
            expiresAt: components["schemas"]["Payment"]["expiresAt"];
            createdAt: components["schemas"]["Payment"]["createdAt"];
        };
        /** @description The retrieve view of a payment just cancelled. */
        CancelledPayment: components["schemas"]["Payment"] & {
            /** @constant */
            status?: "CANCELLED";
        };
        /**
         * @description Body of `POST /v1/payments`. Unknown fields give 400 (assumed). Rules a schema cannot hold
         *     (cross-field sums, per-currency minimums, EIP-55 checksums, the expiry window relative to
         *     now) are given in the descriptions and `x-` extensions and listed in the requirement
         *     catalogue.
         */
        PaymentCreateRequest: {
            /**
             * @description Fiat amount with 0-2 decimal places, at most 1,000,000,000,000, at least the
             *     currency's minimum (`x-currency-minimums`, values assumed). JPY, IDR and VND reject
             *     fractional amounts.
             */
            amount: components["schemas"]["FiatAmount"];
            currency: components["schemas"]["Currency"];
            /** @description Payment title, at most 255 characters. */
            title?: string;
            /**
             * @description Merchant reference: at most 36 letters, digits, hyphens, underscores and dots. Unique
             *     per merchant among ACTIVE, PROCESSING and SUCCESSFUL payments (409 otherwise);
             *     reusable once the holder is FAILED, EXPIRED or CANCELLED.
             */
            externalId?: string;
            /**
             * @description Subset of the supported chain IDs; default all. Non-empty without duplicates (assumed).
             * @default [
             *       1,
             *       42161,
             *       8453,
             *       137,
             *       56
             *     ]
             */
            acceptedChains?: components["schemas"]["ChainId"][];
            /**
             * @description Subset of the supported tokens; default all. Non-empty without duplicates (assumed).
             * @default [
             *       "USDC",
             *       "USDT"
             *     ]
             */
            acceptedTokens?: components["schemas"]["Token"][];
            /**
             * Format: date-time
             * @description Expiry, between 15 minutes and 30 days from now (both bounds inclusive, assumed);
             *     default 1 hour from now.
             */
            expiresAt?: string;
            /**
             * @description Split recipients, at most 5. Omit or send null for none; an empty array is 400
             *     (assumed). Addresses must be distinct (assumed).
             */
            sellers?: components["schemas"]["SellerInput"][] | null;
            /**
             * @description Merchant's cut before the service fee, 0-2 decimal places. When given,
             *     merchantAmount plus the seller amounts must equal amount; when omitted the merchant
             *     gets the remainder after the sellers, which must be positive (assumed: seller amounts
             *     adding up to amount or more are 400).
             */
            merchantAmount?: string;
        } & (unknown & unknown & unknown & unknown);
        /** @description One page of payments (retrieve view). `data` as the name of the items field is assumed. */
        PaymentList: {
            data: components["schemas"]["Payment"][];
            nextCursor: components["schemas"]["ListNextCursor"];
            hasMore: components["schemas"]["ListHasMore"];
        };
        /** @description Cursor for the next page (the last item's id) when `hasMore`, else null (null assumed). */
        ListNextCursor: string | null;
        /** @description Whether another page follows. */
        ListHasMore: boolean;
        /** @description One invalid field. */
        FieldError: {
            /** @description JSON path of the field as segments (`["sellers","2","address"]`; `[]` for the body as a whole, assumed). */
            path: string[];
            message: string;
        };
        /** @description Error body of 400 and 409 responses (and, assumed, of every other error). */
        ErrorBody: {
            /** @description The HTTP status code. */
            statusCode: number;
            message: string;
            /** @description HTTP reason phrase (Bad Request, Unauthorized, Not Found, Conflict, Too Many Requests). */
            error: string;
            /** @description Present only on 400 validation failures, one element per invalid field. */
            errors?: components["schemas"]["FieldError"][];
        };
        /** @description A 400 validation failure. */
        ValidationError: components["schemas"]["ErrorBody"] & {
            /** @constant */
            statusCode?: 400;
            /** @constant */
            message?: "Validation failed";
            /** @constant */
            error?: "Bad Request";
            errors: unknown;
        };
        /** @description A 400 that is not a validation failure (e.g. cancelling a payment that is not ACTIVE). */
        BadRequestError: components["schemas"]["ErrorBody"] & {
            /** @constant */
            statusCode?: 400;
            /** @constant */
            error?: "Bad Request";
        };
        /** @description A 409 conflict. */
        ConflictError: components["schemas"]["ErrorBody"] & {
            /** @constant */
            statusCode?: 409;
            /** @constant */
            error?: "Conflict";
        };
        /** @description Body of a 401 (shape assumed). */
        UnauthorizedError: components["schemas"]["ErrorBody"] & {
            /** @constant */
            statusCode?: 401;
            /** @constant */
            error?: "Unauthorized";
        };
        /** @description Body of a 404 (shape assumed). */
        NotFoundError: components["schemas"]["ErrorBody"] & {
            /** @constant */
            statusCode?: 404;
            /** @constant */
            error?: "Not Found";
        };
        /** @description Body of a 429 (shape assumed). */
        TooManyRequestsError: components["schemas"]["ErrorBody"] & {
            /** @constant */
            statusCode?: 429;
            /** @constant */
            error?: "Too Many Requests";
        };
        /**
         * @description Event types of the webhook deliveries.
         * @enum {string}
         */
        WebhookEventType: "payment.created" | "payment.processing" | "payment.completed" | "payment.failed" | "payment.expired" | "payment.cancelled" | "payout.created" | "payout.processing" | "payout.completed" | "payout.failed" | "payout.expired" | "payout.cancelled" | "test";
        /** @description Fields of the webhook endpoint record (assumed shape); see WebhookEndpoint. */
        WebhookEndpointFields: {
            id: components["schemas"]["Uuid"];
            /** Format: uri */
            url: string;
            /** @description Disabled endpoints receive no deliveries. */
            enabled: boolean;
            /** @description Last four characters of the signing secret. */
            secretLast4: string;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
        };
        /** @description The merchant's webhook endpoint (one per merchant, assumed shape). */
        WebhookEndpoint: components["schemas"]["WebhookEndpointFields"];
        /** @description The endpoint with its signing secret, returned only on creation and rotation (assumed shape). */
        WebhookEndpointWithSecret: {
            /** @description The signing secret, shown once. */
            secret: string;
        } & components["schemas"]["WebhookEndpointFields"];
        /** @description Body of `POST /v1/webhooks` (assumed). HTTPS is required in production; http is accepted for local receivers. */
        WebhookEndpointCreateRequest: {
            /** Format: uri */
            url: string;
            /** @default true */
            enabled?: boolean;
        };
        /** @description Body of `PUT /v1/webhooks`; at least one field (assumed). */
        WebhookEndpointUpdateRequest: {
            /** Format: uri */
            url?: string;
            enabled?: boolean;
        };
        /**
         * @description pending (an attempt is due), succeeded (a 2xx was received), failed (attempt 7 failed).
         * @enum {string}
         */
        WebhookDeliveryStatus: "pending" | "succeeded" | "failed";
        /** @description One delivery attempt (assumed shape). */
        WebhookDeliveryAttempt: {
            number: number;
            attemptedAt: components["schemas"]["Timestamp"];
            /** @description HTTP status received, or null when no response arrived. */
            statusCode: number | null;
            durationMs: number;
            /** @description Why the attempt failed (e.g. `timeout after 10000 ms`, `connect ECONNREFUSED`, `HTTP 500`), null on success. */
            error: string | null;
        };
        /** @description A delivery of one event to the endpoint, with its attempts (assumed shape). */
        WebhookDelivery: {
            id: components["schemas"]["Uuid"];
            event: components["schemas"]["WebhookEventType"];
            /** Format: uuid */
            paymentId: string | null;
            /** Format: uuid */
            payoutId: string | null;
            /** Format: uri */
            url: string;
            status: components["schemas"]["WebhookDeliveryStatus"];
            attempts: components["schemas"]["WebhookDeliveryAttempt"][];
            nextAttemptAt: components["schemas"]["NullableTimestamp"];
            payload: components["schemas"]["WebhookPayload"];
            chaos?: components["schemas"]["WebhookDeliveryChaos"];
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
        };
        /** @description Present only on a simulator started with --chaos-deliveries: how many of this delivery's attempts were sent twice, held back so later events overtook them, or delayed, so a merchant can rehearse the duplicates and out-of-order arrival spec §6 warns about (assumed; not part of the service). */
        WebhookDeliveryChaos: {
            duplicated: number;
            reordered: number;
            delayed: number;
        };
        /** @description One page of deliveries. */
        WebhookDeliveryList: {
            data: components["schemas"]["WebhookDelivery"][];
            nextCursor: components["schemas"]["ListNextCursor"];
            hasMore: components["schemas"]["ListHasMore"];
        };
        /** @description An IPv4 or IPv6 address or CIDR block. */
        IpAddressOrCidr: string;
        /** @enum {string} */
        ApiKeyStatus: "active" | "revoked" | "expired";
        /** @description Fields of the API key record (assumed shape); see ApiKey. */
        ApiKeyFields: {
            id: components["schemas"]["Uuid"];
            name: string | null;
            /** @description First 11 characters of the key (`pk_` and 8 more), the only part kept in clear. */
            prefix: string;
            /** @description Addresses or CIDR blocks allowed to use the key; null for any. */
            ipWhitelist: components["schemas"]["IpAddressOrCidr"][] | null;
            /** @description Expiry; null for never. */
            expiresAt: components["schemas"]["NullableTimestamp"];
            revokedAt: components["schemas"]["NullableTimestamp"];
            lastUsedAt: components["schemas"]["NullableTimestamp"];
            status: components["schemas"]["ApiKeyStatus"];
            createdAt: components["schemas"]["Timestamp"];
        };
        /** @description An API key record; never contains the key itself (assumed shape). */
        ApiKey: components["schemas"]["ApiKeyFields"];
        /** @description A new API key record with the key, shown only once (assumed shape). */
        ApiKeyWithSecret: {
            /** @description The secret key. */
            key: string;
        } & components["schemas"]["ApiKeyFields"];
        /**
         * @description Body of `POST /v1/auth/api-keys` (assumed). `expiresInDays` null or omitted means the key
         *     never expires; otherwise 30 to 3650 days.
         */
        ApiKeyCreateRequest: {
            name?: string;
            ipWhitelist?: components["schemas"]["IpAddressOrCidr"][];
            expiresInDays?: number | null;
        };
        /** @description One page of API key records. */
        ApiKeyList: {
            data: components["schemas"]["ApiKey"][];
            nextCursor: components["schemas"]["ListNextCursor"];
            hasMore: components["schemas"]["ListHasMore"];
        };
        /** @description Payment summary for a period, with splits by stablecoin and by chain (assumed shape). Volumes count SUCCESSFUL payments only. */
        Analytics: {
            from: components["schemas"]["Timestamp"];
            to: components["schemas"]["Timestamp"];
            payments: {
                total: number;
                byStatus: {
                    ACTIVE: number;
                    PROCESSING: number;
                    SUCCESSFUL: number;
                    FAILED: number;
                    EXPIRED: number;
                    CANCELLED: number;
                };
            };
            volume: {
                currency: components["schemas"]["Currency"];
                count: number;
                amount: components["schemas"]["DecimalString"];
                serviceFee: components["schemas"]["DecimalString"];
                merchantFee: components["schemas"]["DecimalString"];
            }[];
            byToken: {
                token: components["schemas"]["Token"];
                count: number;
                amountToken: components["schemas"]["DecimalString"];
            }[];
            byChain: {
                chainId: components["schemas"]["ChainId"];
                count: number;
                amountToken: components["schemas"]["DecimalString"];
            }[];
        };
        /**
         * @description RFC 4180 CSV with CRLF line ends (`text/csv; charset=utf-8`), starting with the header row
         *     `id,createdAt,status,amount,currency,serviceFee,merchantFee,externalId,title,chainId,token,exchangeRate,amountToken,txHash,paidAt`
         *     (assumed columns).
         */
        AnalyticsCsv: string;
        /** @description One transfer of the settlement batch. */
        TransactionTransfer: {
            /** @enum {string} */
            role: "merchant" | "seller" | "service";
            address: components["schemas"]["Address"];
            amountToken: components["schemas"]["TokenAmount"];
        };
        /** @description Ledger record of one settlement (one per SUCCESSFUL payment, assumed shape). */
        Transaction: {
            id: components["schemas"]["Uuid"];
            paymentId: components["schemas"]["Uuid"];
            externalId: string | null;
            chainId: components["schemas"]["ChainId"];
            token: components["schemas"]["Token"];
            txHash: string;
            amount: components["schemas"]["FiatAmount"];
            currency: components["schemas"]["Currency"];
            exchangeRate: components["schemas"]["ExchangeRate"];
            amountToken: components["schemas"]["TokenAmount"];
            serviceFeeToken: components["schemas"]["TokenAmount"];
            merchantFeeToken: components["schemas"]["TokenAmount"];
            gasActual: components["schemas"]["TokenAmount"];
            transfers: components["schemas"]["TransactionTransfer"][];
            settledAt: components["schemas"]["Timestamp"];
        };
        /** @description One page of ledger records. */
        TransactionList: {
            data: components["schemas"]["Transaction"][];
            nextCursor: components["schemas"]["ListNextCursor"];
            hasMore: components["schemas"]["ListHasMore"];
        };
        /** @description A payout (assumed shape); the same six states as payments. */
        Payout: {
            id: components["schemas"]["Uuid"];
            status: components["schemas"]["PaymentStatus"];
            amount: components["schemas"]["FiatAmount"];
            currency: components["schemas"]["Currency"];
            recipientAddress: components["schemas"]["Address"];
            externalId: string | null;
            chainId: components["schemas"]["ChainId"] | null;
            token: components["schemas"]["Token"] | null;
            exchangeRate: components["schemas"]["ExchangeRate"] | null;
            amountToken: components["schemas"]["NullableTokenAmount"];
            txHash: components["schemas"]["TxHash"];
            error: components["schemas"]["PaymentFailure"] | null;
            expiresAt: components["schemas"]["Timestamp"];
            paidAt: components["schemas"]["NullableTimestamp"];
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
        };
        /** @description JSON-RPC request id. */
        JsonRpcId: string | number | null;
        /** @description A JSON-RPC 2.0 request. */
        JsonRpcRequest: {
            /** @constant */
            jsonrpc: "2.0";
            id?: components["schemas"]["JsonRpcId"];
            method: string;
            params?: unknown[] | Record<string, never>;
        };
        /** @description A single JSON-RPC request or a non-empty batch. */
        JsonRpcRequestBody: components["schemas"]["JsonRpcRequest"] | components["schemas"]["JsonRpcRequest"][];
        /** @description JSON-RPC error: -32700 parse error, -32600 invalid request, -32601 unknown method, -32000 refused method (assumed codes). */
        JsonRpcError: {
            code: number;
            message: string;
            /** @description Optional error data. */
            data?: unknown;
        };
        /** @description A JSON-RPC 2.0 response carrying either `result` or `error`. */
        JsonRpcResponse: components["schemas"]["JsonRpcSuccess"] | components["schemas"]["JsonRpcFailure"];
        /** @description A JSON-RPC 2.0 response with a result. */
        JsonRpcSuccess: {
            /** @constant */
            jsonrpc: "2.0";
            id: components["schemas"]["JsonRpcId"];
            /** @description The call's result (any JSON value). */
            result: unknown;
        };
        /** @description A JSON-RPC 2.0 response with an error. */
        JsonRpcFailure: {
            /** @constant */
            jsonrpc: "2.0";
            id: components["schemas"]["JsonRpcId"];
            error: components["schemas"]["JsonRpcError"];
        };
        /** @description A single JSON-RPC response or a batch of them. */
        JsonRpcResponseBody: components["schemas"]["JsonRpcResponse"] | components["schemas"]["JsonRpcResponse"][];
        /**
         * Format: date-time
         * @description ISO 8601 date-time of the event (UTC with milliseconds and Z, assumed).
         */
        EventTimestamp: string;
        /** @description Identifies the payment; the receiver fetches it for details. */
        PaymentEventData: {
            paymentId: components["schemas"]["Uuid"];
            /** @description The merchant's reference; null when the payment has none (null assumed). */
            externalId: string | null;
        };
        /** @description Identifies the payout; `payoutId` replaces `paymentId`. */
        PayoutEventData: {
            payoutId: components["schemas"]["Uuid"];
            /** @description The merchant's reference; null when the payout has none (null assumed). */
            externalId: string | null;
        };
        /** @description Body of a payment.* delivery. */
        PaymentEventPayload: {
            /** @enum {string} */
            event: "payment.created" | "payment.processing" | "payment.completed" | "payment.failed" | "payment.expired" | "payment.cancelled";
            timestamp: components["schemas"]["EventTimestamp"];
            data: components["schemas"]["PaymentEventData"];
        };
        /** @description Body of a payout.* delivery. */
        PayoutEventPayload: {
            /** @enum {string} */
            event: "payout.created" | "payout.processing" | "payout.completed" | "payout.failed" | "payout.expired" | "payout.cancelled";
            timestamp: components["schemas"]["EventTimestamp"];
            data: components["schemas"]["PayoutEventData"];
        };
        /** @description Body of a test delivery; only `event` and `timestamp`, no `data`. */
        TestEvent: {
            /** @constant */
            event: "test";
            timestamp: components["schemas"]["EventTimestamp"];
        };
        /** @description Body of any webhook delivery. */
        WebhookPayload: components["schemas"]["PaymentEventPayload"] | components["schemas"]["PayoutEventPayload"] | components["schemas"]["TestEvent"];
        /** @description Body of a `payment.created` delivery. */
        PaymentCreatedEvent: {
            /** @constant */
            event: "payment.created";
        } & WithRequired<components["schemas"]["PaymentEventPayload"], "event">;
        /** @description Body of a `payment.processing` delivery. */
        PaymentProcessingEvent: {
            /** @constant */
            event: "payment.processing";
        } & WithRequired<components["schemas"]["PaymentEventPayload"], "event">;
        /** @description Body of a `payment.completed` delivery. */
        PaymentCompletedEvent: {
            /** @constant */
            event: "payment.completed";
        } & WithRequired<components["schemas"]["PaymentEventPayload"], "event">;
        /** @description Body of a `payment.failed` delivery. */
        PaymentFailedEvent: {
            /** @constant */
            event: "payment.failed";
        } & WithRequired<components["schemas"]["PaymentEventPayload"], "event">;
        /** @description Body of a `payment.expired` delivery. */
        PaymentExpiredEvent: {
            /** @constant */
            event: "payment.expired";
        } & WithRequired<components["schemas"]["PaymentEventPayload"], "event">;
        /** @description Body of a `payment.cancelled` delivery. */
        PaymentCancelledEvent: {
            /** @constant */
            event: "payment.cancelled";
        } & WithRequired<components["schemas"]["PaymentEventPayload"], "event">;
        /** @description Body of a `payout.created` delivery. */
        PayoutCreatedEvent: {
            /** @constant */
            event: "payout.created";
        } & WithRequired<components["schemas"]["PayoutEventPayload"], "event">;
        /** @description Body of a `payout.processing` delivery. */
        PayoutProcessingEvent: {
            /** @constant */
            event: "payout.processing";
        } & WithRequired<components["schemas"]["PayoutEventPayload"], "event">;
        /** @description Body of a `payout.completed` delivery. */
        PayoutCompletedEvent: {
            /** @constant */
            event: "payout.completed";
        } & WithRequired<components["schemas"]["PayoutEventPayload"], "event">;
        /** @description Body of a `payout.failed` delivery. */
        PayoutFailedEvent: {
            /** @constant */
            event: "payout.failed";
        } & WithRequired<components["schemas"]["PayoutEventPayload"], "event">;
        /** @description Body of a `payout.expired` delivery. */
        PayoutExpiredEvent: {
            /** @constant */
            event: "payout.expired";
        } & WithRequired<components["schemas"]["PayoutEventPayload"], "event">;
        /** @description Body of a `payout.cancelled` delivery. */
        PayoutCancelledEvent: {
            /** @constant */
            event: "payout.cancelled";
        } & WithRequired<components["schemas"]["PayoutEventPayload"], "event">;
    };
    responses: {
        /** @description Validation failed; one `errors` element per invalid field. */
        PaymentValidationFailed: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ValidationError"];
            };
        };
        /** @description A query parameter is invalid (assumed). */
        InvalidQuery: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ValidationError"];
            };
        };
        /** @description The request body is invalid (assumed). */
        InvalidRequest: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ValidationError"];
            };
        };
        /** @description The payment is not ACTIVE and cannot be cancelled. */
        PaymentNotActive: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["BadRequestError"];
            };
        };
        /** @description Missing or invalid credentials. The body shape is assumed (same as 400/409). */
        Unauthorized: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UnauthorizedError"];
            };
        };
        /** @description No payment with this id for this merchant. The body shape is assumed. */
        PaymentNotFound: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["NotFoundError"];
            };
        };
        /** @description The resource does not exist or belongs to another merchant (assumed). */
        NotFound: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["NotFoundError"];
            };
        };
        /** @description The externalId is in use by an ACTIVE, PROCESSING or SUCCESSFUL payment of this merchant. */
        ExternalIdConflict: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ConflictError"];
            };
        };
        /** @description The merchant's API key limit is reached (10 active keys in the simulator, assumed). */
        ApiKeyLimitReached: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ConflictError"];
            };
        };
        /** @description A webhook endpoint is already configured; use PUT to change it (assumed). */
        WebhookEndpointExists: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ConflictError"];
            };
        };
        /** @description The webhook endpoint is disabled, so no test event is sent or recorded (assumed). */
        WebhookEndpointDisabled: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ConflictError"];
            };
        };
        /** @description Rate limit exceeded. The body shape and `Retry-After` are assumed. */
        TooManyRequests: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["TooManyRequestsError"];
            };
        };
        /** @description Any 2xx response received within 10 seconds marks the delivery successful. */
        WebhookAcknowledged: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
        /**
         * @description Any other outcome (non-2xx status, connection error, no response within 10 seconds) fails
         *     the attempt. Attempts follow at 1 min, 5 min, 30 min, 2 h, 8 h and 24 h after the previous
         *     one, 7 attempts in total, after which the delivery is marked failed.
         */
        WebhookNotAcknowledged: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
    };
    parameters: {
        /**
         * @description Payment identifier (UUID).
         * @example 5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b
         */
        PaymentId: string;
        /**
         * @description The `id` of the last item of the previous page. An unknown or foreign cursor gives 400 (assumed).
         * @example 5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b
         */
        Cursor: string;
        /**
         * @description Page size, default 20, maximum 100. Values outside 1..100 give 400 with `errors[].path = ["limit"]` (minimum and the 400 are assumed).
         * @example 20
         */
        Limit: number;
        /**
         * @description Unix timestamp in seconds of this delivery attempt (re-stamped on every attempt, assumed).
         * @example 1795255500
         */
        ServiceTimestamp: number;
        /**
         * @description `t=<timestamp>,v1=<signature>`: `v1` is the hex HMAC-SHA256 of `<timestamp>.<raw_body>`
         *     keyed with the webhook secret. Receivers reject a missing part, a timestamp more than
         *     300 seconds from now, and a mismatch found by constant-time comparison.
         * @example t=1795255500,v1=2029bfd5aec15a6adf8e422523efa5068873241b9818f9880ee309a3be908ea2
         */
        ServiceSignature: string;
        /**
         * @description The delivery's id (the `id` of its record in `GET /v1/webhooks/deliveries`): the same on every attempt of one
         *     delivery, a retry or a duplicate, and different for every other delivery, so a receiver can deduplicate on it
         *     (the spec's own suggestion, paymentId or payoutId plus event, works too). Not part of the spec: an assumed
         *     extension the stablepay simulator sends on every delivery; a service that does not send it is not judged by it.
         * @example 0d9c3b1e-6f7a-4c2b-9e8d-1a2b3c4d5e6f
         */
        ServiceDeliveryId: string;
    };
    requestBodies: never;
    headers: {
        /**
         * @description Maximum number of requests allowed in the current window.
         * @example 6000
         */
        "X-RateLimit-Limit": number;
        /**
         * @description Requests remaining in the current window.
         * @example 5987
         */
        "X-RateLimit-Remaining": number;
        /**
         * @description Unix time (seconds) at which the current window resets.
         * @example 1795255260
         */
        "X-RateLimit-Reset": number;
        /**
         * @description Seconds until the window resets and requests are accepted again (assumed).
         * @example 42
         */
        "Retry-After": number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listPayments: {
        parameters: {
            query?: {
                /**
                 * @description The `id` of the last item of the previous page. An unknown or foreign cursor gives 400 (assumed).
                 * @example 5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Page size, default 20, maximum 100. Values outside 1..100 give 400 with `errors[].path = ["limit"]` (minimum and the 400 are assumed).
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description Only payments in this status (assumed filter).
                 * @example SUCCESSFUL
                 */
                status?: components["schemas"]["PaymentStatus"];
                /**
                 * @description Only payments with this merchant reference (assumed filter).
                 * @example order-1042
                 */
                externalId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of payments. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentList"];
                };
            };
            400: components["responses"]["InvalidQuery"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createPayment: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentCreateRequest"];
            };
        };
        responses: {
            /** @description Created. The create view of the payment; its status is ACTIVE. */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentCreateView"];
                };
            };
            400: components["responses"]["PaymentValidationFailed"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["ExternalIdConflict"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getPayment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Payment identifier (UUID).
                 * @example 5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b
                 */
                id: components["parameters"]["PaymentId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payment in the retrieve (merchant) view. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["PaymentNotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    cancelPayment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Payment identifier (UUID).
                 * @example 5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b
                 */
                id: components["parameters"]["PaymentId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The updated payment, now CANCELLED (status code assumed). */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CancelledPayment"];
                };
            };
            400: components["responses"]["PaymentNotActive"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["PaymentNotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The configured endpoint. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEndpointUpdateRequest"];
            };
        };
        responses: {
            /** @description The updated endpoint. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEndpointCreateRequest"];
            };
        };
        responses: {
            /** @description Created; the secret appears only in this response. */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["WebhookEndpointExists"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    regenerateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint with its new secret. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    sendTestWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted; the delivery of the test event. */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["WebhookEndpointDisabled"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /**
                 * @description The `id` of the last item of the previous page. An unknown or foreign cursor gives 400 (assumed).
                 * @example 5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Page size, default 20, maximum 100. Values outside 1..100 give 400 with `errors[].path = ["limit"]` (minimum and the 400 are assumed).
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description Only deliveries of this event type.
                 * @example payment.completed
                 */
                event?: components["schemas"]["WebhookEventType"];
                /**
                 * @description Only deliveries in this delivery status.
                 * @example failed
                 */
                status?: components["schemas"]["WebhookDeliveryStatus"];
                /**
                 * @description Only deliveries about this payment.
                 * @example 5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b
                 */
                paymentId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of deliveries. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            400: components["responses"]["InvalidQuery"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                /**
                 * @description The `id` of the last item of the previous page. An unknown or foreign cursor gives 400 (assumed).
                 * @example 5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Page size, default 20, maximum 100. Values outside 1..100 give 400 with `errors[].path = ["limit"]` (minimum and the 400 are assumed).
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of API keys. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyList"];
                };
            };
            400: components["responses"]["InvalidQuery"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApiKeyCreateRequest"];
            };
        };
        responses: {
            /** @description Created; the key appears only in this response. */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyWithSecret"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["ApiKeyLimitReached"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description API key record id (not the key).
                 * @example 0c8e4b7a-2f1d-4c6e-9b3a-7d5f1e2c4a60
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key record, now revoked. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getAnalytics: {
        parameters: {
            query?: {
                /**
                 * @description Start of the period (inclusive). Default `to` minus 30 days.
                 * @example 2026-10-22T10:00:00.000Z
                 */
                from?: string;
                /**
                 * @description End of the period (exclusive). Default now.
                 * @example 2026-11-21T10:00:00.000Z
                 */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The summary. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Analytics"];
                };
            };
            400: components["responses"]["InvalidQuery"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    exportAnalytics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The CSV document. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": components["schemas"]["AnalyticsCsv"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    listTransactions: {
        parameters: {
            query?: {
                /**
                 * @description The `id` of the last item of the previous page. An unknown or foreign cursor gives 400 (assumed).
                 * @example 5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b
                 */
                cursor?: components["parameters"]["Cursor"];
                /**
                 * @description Page size, default 20, maximum 100. Values outside 1..100 give 400 with `errors[].path = ["limit"]` (minimum and the 400 are assumed).
                 * @example 20
                 */
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of ledger records. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransactionList"];
                };
            };
            400: components["responses"]["InvalidQuery"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    web3Rpc: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description One of the supported chain IDs; any other gives 404 (assumed).
                 * @example 8453
                 */
                chainId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["JsonRpcRequestBody"];
            };
        };
        responses: {
            /** @description JSON-RPC response(s); JSON-RPC errors are also carried with HTTP 200. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcResponseBody"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    getPayout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Payout identifier, as carried by the payout events.
                 * @example 9d4c2b1a-8e7f-4a6b-9c5d-3e2f1a0b9c8d
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payout. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payout"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    onPaymentCreated: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Unix timestamp in seconds of this delivery attempt (re-stamped on every attempt, assumed).
                 * @example 1795255500
                 */
                "X-Service-Timestamp": components["parameters"]["ServiceTimestamp"];
                /**
                 * @description `t=<timestamp>,v1=<signature>`: `v1` is the hex HMAC-SHA256 of `<timestamp>.<raw_body>`
                 *     keyed with the webhook secret. Receivers reject a missing part, a timestamp more than
                 *     300 seconds from now, and a mismatch found by constant-time comparison.
                 * @example t=1795255500,v1=2029bfd5aec15a6adf8e422523efa5068873241b9818f9880ee309a3be908ea2
                 */
                "X-Service-Signature": components["parameters"]["ServiceSignature"];
                /**
                 * @description The delivery's id (the `id` of its record in `GET /v1/webhooks/deliveries`): the same on every attempt of one
                 *     delivery, a retry or a duplicate, and different for every other delivery, so a receiver can deduplicate on it
                 *     (the spec's own suggestion, paymentId or payoutId plus event, works too). Not part of the spec: an assumed
                 *     extension the stablepay simulator sends on every delivery; a service that does not send it is not judged by it.
                 * @example 0d9c3b1e-6f7a-4c2b-9e8d-1a2b3c4d5e6f
                 */
                "X-Service-Delivery-Id"?: components["parameters"]["ServiceDeliveryId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentCreatedEvent"];
            };
        };
        responses: {
            "2XX": components["responses"]["WebhookAcknowledged"];
            default: components["responses"]["WebhookNotAcknowledged"];
        };
    };
    onPaymentProcessing: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Unix timestamp in seconds of this delivery attempt (re-stamped on every attempt, assumed).
                 * @example 1795255500
                 */
                "X-Service-Timestamp": components["parameters"]["ServiceTimestamp"];
                /**
                 * @description `t=<timestamp>,v1=<signature>`: `v1` is the hex HMAC-SHA256 of `<timestamp>.<raw_body>`
                 *     keyed with the webhook secret. Receivers reject a missing part, a timestamp more than
                 *     300 seconds from now, and a mismatch found by constant-time comparison.
                 * @example t=1795255500,v1=2029bfd5aec15a6adf8e422523efa5068873241b9818f9880ee309a3be908ea2
                 */
                "X-Service-Signature": components["parameters"]["ServiceSignature"];
                /**
                 * @description The delivery's id (the `id` of its record in `GET /v1/webhooks/deliveries`): the same on every attempt of one
                 *     delivery, a retry or a duplicate, and different for every other delivery, so a receiver can deduplicate on it
                 *     (the spec's own suggestion, paymentId or payoutId plus event, works too). Not part of the spec: an assumed
                 *     extension the stablepay simulator sends on every delivery; a service that does not send it is not judged by it.
                 * @example 0d9c3b1e-6f7a-4c2b-9e8d-1a2b3c4d5e6f
                 */
                "X-Service-Delivery-Id"?: components["parameters"]["ServiceDeliveryId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentProcessingEvent"];
            };
        };
        responses: {
            "2XX": components["responses"]["WebhookAcknowledged"];
            default: components["responses"]["WebhookNotAcknowledged"];
        };
    };
    onPaymentCompleted: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Unix timestamp in seconds of this delivery attempt (re-stamped on every attempt, assumed).
                 * @example 1795255500
                 */
                "X-Service-Timestamp": components["parameters"]["ServiceTimestamp"];
                /**
                 * @description `t=<timestamp>,v1=<signature>`: `v1` is the hex HMAC-SHA256 of `<timestamp>.<raw_body>`
                 *     keyed with the webhook secret. Receivers reject a missing part, a timestamp more than
                 *     300 seconds from now, and a mismatch found by constant-time comparison.
                 * @example t=1795255500,v1=2029bfd5aec15a6adf8e422523efa5068873241b9818f9880ee309a3be908ea2
                 */
                "X-Service-Signature": components["parameters"]["ServiceSignature"];
                /**
                 * @description The delivery's id (the `id` of its record in `GET /v1/webhooks/deliveries`): the same on every attempt of one
                 *     delivery, a retry or a duplicate, and different for every other delivery, so a receiver can deduplicate on it
                 *     (the spec's own suggestion, paymentId or payoutId plus event, works too). Not part of the spec: an assumed
                 *     extension the stablepay simulator sends on every delivery; a service that does not send it is not judged by it.
                 * @example 0d9c3b1e-6f7a-4c2b-9e8d-1a2b3c4d5e6f
                 */
                "X-Service-Delivery-Id"?: components["parameters"]["ServiceDeliveryId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentCompletedEvent"];
            };
        };
        responses: {
            "2XX": components["responses"]["WebhookAcknowledged"];
            default: components["responses"]["WebhookNotAcknowledged"];
        };
    };
    onPaymentFailed: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Unix timestamp in seconds of this delivery attempt (re-stamped on every attempt, assumed).
                 * @example 1795255500
                 */
                "X-Service-Timestamp": components["parameters"]["ServiceTimestamp"];
                /**
                 * @description `t=<timestamp>,v1=<signature>`: `v1` is the hex HMAC-SHA256 of `<timestamp>.<raw_body>`
                 *     keyed with the webhook secret. Receivers reject a missing part, a timestamp more than
                 *     300 seconds from now, and a mismatch found by constant-time comparison.
                 * @example t=1795255500,v1=2029bfd5aec15a6adf8e422523efa5068873241b9818f9880ee309a3be908ea2
                 */
                "X-Service-Signature": components["parameters"]["ServiceSignature"];
                /**
                 * @description The delivery's id (the `id` of its record in `GET /v1/webhooks/deliveries`): the same on every attempt of one
                 *     delivery, a retry or a duplicate, and different for every other delivery, so a receiver can deduplicate on it
                 *     (the spec's own suggestion, paymentId or payoutId plus event, works too). Not part of the spec: an assumed
                 *     extension the stablepay simulator sends on every delivery; a service that does not send it is not judged by it.
                 * @example 0d9c3b1e-6f7a-4c2b-9e8d-1a2b3c4d5e6f
                 */
                "X-Service-Delivery-Id"?: components["parameters"]["ServiceDeliveryId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentFailedEvent"];
            };
        };
        responses: {
            "2XX": components["responses"]["WebhookAcknowledged"];
            default: components["responses"]["WebhookNotAcknowledged"];
        };
    };
    onPaymentExpired: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Unix timestamp in seconds of this delivery attempt (re-stamped on every attempt, assumed).
                 * @example 1795255500
                 */
                "X-Service-Timestamp": components["parameters"]["ServiceTimestamp"];
                /**
                 * @description `t=<timestamp>,v1=<signature>`: `v1` is the hex HMAC-SHA256 of `<timestamp>.<raw_body>`
                 *     keyed with the webhook secret. Receivers reject a missing part, a timestamp more than
                 *     300 seconds from now, and a mismatch found by constant-time comparison.
                 * @example t=1795255500,v1=2029bfd5aec15a6adf8e422523efa5068873241b9818f9880ee309a3be908ea2
                 */
                "X-Service-Signature": components["parameters"]["ServiceSignature"];
                /**
                 * @description The delivery's id (the `id` of its record in `GET /v1/webhooks/deliveries`): the same on every attempt of one
                 *     delivery, a retry or a duplicate, and different for every other delivery, so a receiver can deduplicate on it
                 *     (the spec's own suggestion, paymentId or payoutId plus event, works too). Not part of the spec: an assumed
                 *     extension the stablepay simulator sends on every delivery; a service that does not send it is not judged by it.
                 * @example 0d9c3b1e-6f7a-4c2b-9e8d-1a2b3c4d5e6f
                 */
                "X-Service-Delivery-Id"?: components["parameters"]["ServiceDeliveryId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentExpiredEvent"];
            };
        };
        responses: {
            "2XX": components["responses"]["WebhookAcknowledged"];
            default: components["responses"]["WebhookNotAcknowledged"];
        };
    };
    onPaymentCancelled: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Unix timestamp in seconds of this delivery attempt (re-stamped on every attempt, assumed).
                 * @example 1795255500
                 */
                "X-Service-Timestamp": components["parameters"]["ServiceTimestamp"];
                /**
                 * @description `t=<timestamp>,v1=<signature>`: `v1` is the hex HMAC-SHA256 of `<timestamp>.<raw_body>`
                 *     keyed with the webhook secret. Receivers reject a missing part, a timestamp more than
                 *     300 seconds from now, and a mismatch found by constant-time comparison.
                 * @example t=1795255500,v1=2029bfd5aec15a6adf8e422523efa5068873241b9818f9880ee309a3be908ea2
                 */
                "X-Service-Signature": components["parameters"]["ServiceSignature"];
                /**
                 * @description The delivery's id (the `id` of its record in `GET /v1/webhooks/deliveries`): the same on every attempt of one
                 *     delivery, a retry or a duplicate, and different for every other delivery, so a receiver can deduplicate on it
                 *     (the spec's own suggestion, paymentId or payoutId plus event, works too). Not part of the spec: an assumed
                 *     extension the stablepay simulator sends on every delivery; a service that does not send it is not judged by it.
                 * @example 0d9c3b1e-6f7a-4c2b-9e8d-1a2b3c4d5e6f
                 */
                "X-Service-Delivery-Id"?: components["parameters"]["ServiceDeliveryId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentCancelledEvent"];
            };
        };
        responses: {
            "2XX": components["responses"]["WebhookAcknowledged"];
            default: components["responses"]["WebhookNotAcknowledged"];
        };
    };
    onPayoutCreated: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Unix timestamp in seconds of this delivery attempt (re-stamped on every attempt, assumed).
                 * @example 1795255500
                 */
                "X-Service-Timestamp": components["parameters"]["ServiceTimestamp"];
                /**
                 * @description `t=<timestamp>,v1=<signature>`: `v1` is the hex HMAC-SHA256 of `<timestamp>.<raw_body>`
                 *     keyed with the webhook secret. Receivers reject a missing part, a timestamp more than
                 *     300 seconds from now, and a mismatch found by constant-time comparison.
                 * @example t=1795255500,v1=2029bfd5aec15a6adf8e422523efa5068873241b9818f9880ee309a3be908ea2
                 */
                "X-Service-Signature": components["parameters"]["ServiceSignature"];
                /**
                 * @description The delivery's id (the `id` of its record in `GET /v1/webhooks/deliveries`): the same on every attempt of one
                 *     delivery, a retry or a duplicate, and different for every other delivery, so a receiver can deduplicate on it
                 *     (the spec's own suggestion, paymentId or payoutId plus event, works too). Not part of the spec: an assumed
                 *     extension the stablepay simulator sends on every delivery; a service that does not send it is not judged by it.
                 * @example 0d9c3b1e-6f7a-4c2b-9e8d-1a2b3c4d5e6f
                 */
                "X-Service-Delivery-Id"?: components["parameters"]["ServiceDeliveryId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PayoutCreatedEvent"];
            };
        };
        responses: {
            "2XX": components["responses"]["WebhookAcknowledged"];
            default: components["responses"]["WebhookNotAcknowledged"];
        };
    };
    onPayoutProcessing: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Unix timestamp in seconds of this delivery attempt (re-stamped on every attempt, assumed).
                 * @example 1795255500
                 */
                "X-Service-Timestamp": components["parameters"]["ServiceTimestamp"];
                /**
                 * @description `t=<timestamp>,v1=<signature>`: `v1` is the hex HMAC-SHA256 of `<timestamp>.<raw_body>`
                 *     keyed with the webhook secret. Receivers reject a missing part, a timestamp more than
                 *     300 seconds from now, and a mismatch found by constant-time comparison.
                 * @example t=1795255500,v1=2029bfd5aec15a6adf8e422523efa5068873241b9818f9880ee309a3be908ea2
                 */
                "X-Service-Signature": components["parameters"]["ServiceSignature"];
                /**
                 * @description The delivery's id (the `id` of its record in `GET /v1/webhooks/deliveries`): the same on every attempt of one
                 *     delivery, a retry or a duplicate, and different for every other delivery, so a receiver can deduplicate on it
                 *     (the spec's own suggestion, paymentId or payoutId plus event, works too). Not part of the spec: an assumed
                 *     extension the stablepay simulator sends on every delivery; a service that does not send it is not judged by it.
                 * @example 0d9c3b1e-6f7a-4c2b-9e8d-1a2b3c4d5e6f
                 */
                "X-Service-Delivery-Id"?: components["parameters"]["ServiceDeliveryId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PayoutProcessingEvent"];
            };
        };
        responses: {
            "2XX": components["responses"]["WebhookAcknowledged"];
            default: components["responses"]["WebhookNotAcknowledged"];
        };
    };
    onPayoutCompleted: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Unix timestamp in seconds of this delivery attempt (re-stamped on every attempt, assumed).
                 * @example 1795255500
                 */
                "X-Service-Timestamp": components["parameters"]["ServiceTimestamp"];
                /**
                 * @description `t=<timestamp>,v1=<signature>`: `v1` is the hex HMAC-SHA256 of `<timestamp>.<raw_body>`
                 *     keyed with the webhook secret. Receivers reject a missing part, a timestamp more than
                 *     300 seconds from now, and a mismatch found by constant-time comparison.
                 * @example t=1795255500,v1=2029bfd5aec15a6adf8e422523efa5068873241b9818f9880ee309a3be908ea2
                 */
                "X-Service-Signature": components["parameters"]["ServiceSignature"];
                /**
                 * @description The delivery's id (the `id` of its record in `GET /v1/webhooks/deliveries`): the same on every attempt of one
                 *     delivery, a retry or a duplicate, and different for every other delivery, so a receiver can deduplicate on it
                 *     (the spec's own suggestion, paymentId or payoutId plus event, works too). Not part of the spec: an assumed
                 *     extension the stablepay simulator sends on every delivery; a service that does not send it is not judged by it.
                 * @example 0d9c3b1e-6f7a-4c2b-9e8d-1a2b3c4d5e6f
                 */
                "X-Service-Delivery-Id"?: components["parameters"]["ServiceDeliveryId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PayoutCompletedEvent"];
            };
        };
        responses: {
            "2XX": components["responses"]["WebhookAcknowledged"];
            default: components["responses"]["WebhookNotAcknowledged"];
        };
    };
    onPayoutFailed: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Unix timestamp in seconds of this delivery attempt (re-stamped on every attempt, assumed).
                 * @example 1795255500
                 */
                "X-Service-Timestamp": components["parameters"]["ServiceTimestamp"];
                /**
                 * @description `t=<timestamp>,v1=<signature>`: `v1` is the hex HMAC-SHA256 of `<timestamp>.<raw_body>`
                 *     keyed with the webhook secret. Receivers reject a missing part, a timestamp more than
                 *     300 seconds from now, and a mismatch found by constant-time comparison.
                 * @example t=1795255500,v1=2029bfd5aec15a6adf8e422523efa5068873241b9818f9880ee309a3be908ea2
                 */
                "X-Service-Signature": components["parameters"]["ServiceSignature"];
                /**
                 * @description The delivery's id (the `id` of its record in `GET /v1/webhooks/deliveries`): the same on every attempt of one
                 *     delivery, a retry or a duplicate, and different for every other delivery, so a receiver can deduplicate on it
                 *     (the spec's own suggestion, paymentId or payoutId plus event, works too). Not part of the spec: an assumed
                 *     extension the stablepay simulator sends on every delivery; a service that does not send it is not judged by it.
                 * @example 0d9c3b1e-6f7a-4c2b-9e8d-1a2b3c4d5e6f
                 */
                "X-Service-Delivery-Id"?: components["parameters"]["ServiceDeliveryId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PayoutFailedEvent"];
            };
        };
        responses: {
            "2XX": components["responses"]["WebhookAcknowledged"];
            default: components["responses"]["WebhookNotAcknowledged"];
        };
    };
    onPayoutExpired: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Unix timestamp in seconds of this delivery attempt (re-stamped on every attempt, assumed).
                 * @example 1795255500
                 */
                "X-Service-Timestamp": components["parameters"]["ServiceTimestamp"];
                /**
                 * @description `t=<timestamp>,v1=<signature>`: `v1` is the hex HMAC-SHA256 of `<timestamp>.<raw_body>`
                 *     keyed with the webhook secret. Receivers reject a missing part, a timestamp more than
                 *     300 seconds from now, and a mismatch found by constant-time comparison.
                 * @example t=1795255500,v1=2029bfd5aec15a6adf8e422523efa5068873241b9818f9880ee309a3be908ea2
                 */
                "X-Service-Signature": components["parameters"]["ServiceSignature"];
                /**
                 * @description The delivery's id (the `id` of its record in `GET /v1/webhooks/deliveries`): the same on every attempt of one
                 *     delivery, a retry or a duplicate, and different for every other delivery, so a receiver can deduplicate on it
                 *     (the spec's own suggestion, paymentId or payoutId plus event, works too). Not part of the spec: an assumed
                 *     extension the stablepay simulator sends on every delivery; a service that does not send it is not judged by it.
                 * @example 0d9c3b1e-6f7a-4c2b-9e8d-1a2b3c4d5e6f
                 */
                "X-Service-Delivery-Id"?: components["parameters"]["ServiceDeliveryId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PayoutExpiredEvent"];
            };
        };
        responses: {
            "2XX": components["responses"]["WebhookAcknowledged"];
            default: components["responses"]["WebhookNotAcknowledged"];
        };
    };
    onPayoutCancelled: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Unix timestamp in seconds of this delivery attempt (re-stamped on every attempt, assumed).
                 * @example 1795255500
                 */
                "X-Service-Timestamp": components["parameters"]["ServiceTimestamp"];
                /**
                 * @description `t=<timestamp>,v1=<signature>`: `v1` is the hex HMAC-SHA256 of `<timestamp>.<raw_body>`
                 *     keyed with the webhook secret. Receivers reject a missing part, a timestamp more than
                 *     300 seconds from now, and a mismatch found by constant-time comparison.
                 * @example t=1795255500,v1=2029bfd5aec15a6adf8e422523efa5068873241b9818f9880ee309a3be908ea2
                 */
                "X-Service-Signature": components["parameters"]["ServiceSignature"];
                /**
                 * @description The delivery's id (the `id` of its record in `GET /v1/webhooks/deliveries`): the same on every attempt of one
                 *     delivery, a retry or a duplicate, and different for every other delivery, so a receiver can deduplicate on it
                 *     (the spec's own suggestion, paymentId or payoutId plus event, works too). Not part of the spec: an assumed
                 *     extension the stablepay simulator sends on every delivery; a service that does not send it is not judged by it.
                 * @example 0d9c3b1e-6f7a-4c2b-9e8d-1a2b3c4d5e6f
                 */
                "X-Service-Delivery-Id"?: components["parameters"]["ServiceDeliveryId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PayoutCancelledEvent"];
            };
        };
        responses: {
            "2XX": components["responses"]["WebhookAcknowledged"];
            default: components["responses"]["WebhookNotAcknowledged"];
        };
    };
    onTestEvent: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Unix timestamp in seconds of this delivery attempt (re-stamped on every attempt, assumed).
                 * @example 1795255500
                 */
                "X-Service-Timestamp": components["parameters"]["ServiceTimestamp"];
                /**
                 * @description `t=<timestamp>,v1=<signature>`: `v1` is the hex HMAC-SHA256 of `<timestamp>.<raw_body>`
                 *     keyed with the webhook secret. Receivers reject a missing part, a timestamp more than
                 *     300 seconds from now, and a mismatch found by constant-time comparison.
                 * @example t=1795255500,v1=2029bfd5aec15a6adf8e422523efa5068873241b9818f9880ee309a3be908ea2
                 */
                "X-Service-Signature": components["parameters"]["ServiceSignature"];
                /**
                 * @description The delivery's id (the `id` of its record in `GET /v1/webhooks/deliveries`): the same on every attempt of one
                 *     delivery, a retry or a duplicate, and different for every other delivery, so a receiver can deduplicate on it
                 *     (the spec's own suggestion, paymentId or payoutId plus event, works too). Not part of the spec: an assumed
                 *     extension the stablepay simulator sends on every delivery; a service that does not send it is not judged by it.
                 * @example 0d9c3b1e-6f7a-4c2b-9e8d-1a2b3c4d5e6f
                 */
                "X-Service-Delivery-Id"?: components["parameters"]["ServiceDeliveryId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestEvent"];
            };
        };
        responses: {
            "2XX": components["responses"]["WebhookAcknowledged"];
            default: components["responses"]["WebhookNotAcknowledged"];
        };
    };
}
type WithRequired<T, K extends keyof T> = T & {
    [P in K]-?: T[P];
};
