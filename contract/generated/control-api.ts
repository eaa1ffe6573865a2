// File generated from conformance/control-api.yaml by scripts/generate-types.mjs. Do not edit.
export interface paths {
    "/clock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the virtual clock
         * @description Current virtual time and its offset from wall time: with a merchant's key, that merchant's clock (the test clock it is attached to, if any); without one, the sandbox clock.
         */
        get: operations["getClock"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/clock/advance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Advance the virtual clock
         * @description Moves virtual time forward, fires every due timer in time order (expiries, webhook retries), and moves the chains' block time along (chains follow the furthest clock). It starts the webhook attempts that fall due but never waits on a receiver. With a merchant's key it moves that merchant's clock only (the test clock it is attached to, if any); without one it moves the sandbox clock, and with it every merchant's.
         */
        post: operations["advanceClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/clock/set": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set the virtual clock
         * @description Moves virtual time forward to the given instant (never backwards: 400), firing due timers exactly like an advance: the calling merchant's clock with a merchant's key, the sandbox clock without one.
         */
        post: operations["setClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/clocks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a test clock
         * @description A new clock at the sandbox clock's time. Merchants created with `testClock` set to its id live on it: moving it moves their payments, payouts, webhook retries and timestamps, and nobody else's (a conformance run makes one for itself and every merchant it creates).
         */
        post: operations["createTestClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/clocks/{clockId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a test clock
         * @description Like `GET /clock`, for the test clock's virtual time and its offset from wall time.
         */
        get: operations["getTestClock"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/clocks/{clockId}/advance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Advance a test clock
         * @description Like `POST /clock/advance`, for the merchants attached to this test clock only.
         */
        post: operations["advanceTestClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/clocks/{clockId}/set": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a test clock
         * @description Like `POST /clock/set`, for the merchants attached to this test clock only.
         */
        post: operations["setTestClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/merchant/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reset the calling merchant's world
         * @description Removes the calling merchant's payments, payouts, webhook deliveries and ledger records, drops their pending timers and attempts, and puts the merchant's clock back to the sandbox clock's time (detaching it from a test clock). The merchant, its API keys, its settings and its webhook endpoint (with its secret) stay. Nothing of another merchant changes.
         */
        post: operations["resetMerchant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reset the simulator
         * @description Empties every store (merchants, keys, payments, payouts, webhook endpoints and deliveries, ledger), cancels pending timers and webhook attempts, puts the virtual clock back to wall time (the chains restart from their baked state, so their block time follows) and makes a fresh default merchant. Its API key is the one in the body, else the one the simulator was started with, else a new random key (returned here, once).
         */
        post: operations["reset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a payment as the dashboard
         * @description Same body and rules as `POST /v1/payments`, but a dashboard create: it emits `payment.created`. Answers with the retrieve view.
         */
        post: operations["dashboardCreatePayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/{id}/submit": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Payment identifier.
                 * @example 5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b
                 */
                id: components["parameters"]["PaymentId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit as the customer
         * @description The customer picks an allowed (chain, token) pair and submits: ACTIVE to PROCESSING, rate locked, `payment.processing` emitted. 400 if the pair is not allowed or the payment has expired; 409 if not ACTIVE.
         */
        post: operations["submitPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/{id}/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Payment identifier.
                 * @example 5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b
                 */
                id: components["parameters"]["PaymentId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm on-chain
         * @description The transaction is confirmed: PROCESSING to SUCCESSFUL with txHash, gasActual and paidAt; `payment.completed` emitted. 409 if not PROCESSING.
         */
        post: operations["confirmPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/{id}/fail": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Payment identifier.
                 * @example 5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b
                 */
                id: components["parameters"]["PaymentId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Fail the transaction
         * @description The transaction reverts or the bundler rejects it: PROCESSING to FAILED with the given (or a default) error object; `payment.failed` emitted. 409 if not PROCESSING.
         */
        post: operations["failPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/{id}/pay": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Payment identifier.
                 * @example 5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b
                 */
                id: components["parameters"]["PaymentId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit and confirm
         * @description Submit and confirm in one call (ACTIVE to PROCESSING to SUCCESSFUL, both events emitted). Same errors as submit; 409 if not ACTIVE.
         */
        post: operations["payPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/merchants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a merchant
         * @description Creates a merchant with a first API key (the key is shown once).
         */
        post: operations["createMerchant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/merchant": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change the calling merchant's dashboard settings
         * @description Sets the settlement wallet and the optional redirect URL the hosted page follows after a successful payment (dashboard settings outside the API). Fields left out stay as they are; `redirectUrl: null` removes the redirect.
         */
        put: operations["updateMerchant"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an API key as the dashboard
         * @description Creates a key for the calling merchant. Unlike `POST /v1/auth/api-keys`, `expiresAt` may be any instant, even in the past, so expired keys can be made.
         */
        post: operations["dashboardCreateApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/exchange-rates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the exchange-rate table
         * @description Token units per 1 unit of each fiat currency, six decimals (the same rate for USDC and USDT).
         */
        get: operations["getExchangeRates"];
        /**
         * Change exchange rates
         * @description Replaces the rates of the given currencies; the others keep their values. Answers with the full table. Rates apply to payments initiated afterwards.
         */
        put: operations["setExchangeRates"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rate-limit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change the rate limit
         * @description Sets the fixed-window limit applied per API key (and per client IP for unauthenticated requests). Answers with the settings now in force.
         */
        put: operations["setRateLimit"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payouts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a payout as the dashboard
         * @description Creates a payout for the calling merchant and emits `payout.created`.
         */
        post: operations["dashboardCreatePayout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payouts/{id}/submit": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Payout identifier.
                 * @example 9d4c2b1a-8e7f-4a6b-9c5d-3e2f1a0b9c8d
                 */
                id: components["parameters"]["PayoutId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit a payout
         * @description The payer picks a (chain, token) pair and submits: ACTIVE to PROCESSING; `payout.processing` emitted. 409 if not ACTIVE.
         */
        post: operations["submitPayout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payouts/{id}/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Payout identifier.
                 * @example 9d4c2b1a-8e7f-4a6b-9c5d-3e2f1a0b9c8d
                 */
                id: components["parameters"]["PayoutId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm a payout
         * @description PROCESSING to SUCCESSFUL; `payout.completed` emitted. 409 if not PROCESSING.
         */
        post: operations["confirmPayout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payouts/{id}/fail": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Payout identifier.
                 * @example 9d4c2b1a-8e7f-4a6b-9c5d-3e2f1a0b9c8d
                 */
                id: components["parameters"]["PayoutId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Fail a payout
         * @description PROCESSING to FAILED with the given (or a default) error; `payout.failed` emitted. 409 if not PROCESSING.
         */
        post: operations["failPayout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payouts/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Payout identifier.
                 * @example 9d4c2b1a-8e7f-4a6b-9c5d-3e2f1a0b9c8d
                 */
                id: components["parameters"]["PayoutId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a payout
         * @description ACTIVE to CANCELLED; `payout.cancelled` emitted. 409 if not ACTIVE.
         */
        post: operations["cancelPayout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Health
         * @description Liveness, and the status of each local chain.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/listeners": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The calling key's listeners
         * @description Every listener the calling key registered and has not deleted, oldest first.
         */
        get: operations["listListeners"];
        put?: never;
        /**
         * Register a listener session
         * @description What `stablepay listen` does (Stripe's CLI sessions): besides the merchant's webhook endpoint, every event of the calling key's merchant is also delivered to this URL, signed with the listener's own secret, on the same retry schedule, until the listener is deleted. The client chooses the secret, so one listener identity keeps one secret across runs. A listener belongs to the key that registered it and outlives a reset as long as that key is valid afterwards. Its deliveries are not in `GET /v1/webhooks/deliveries`. At most 20 per key.
         */
        post: operations["createListener"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/listeners/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event to the merchant's listeners
         * @description Emits a `test` event for the calling key's merchant: its listeners get it, and its endpoint too when one is enabled (`POST /v1/webhooks/test` needs an endpoint; this does not).
         */
        post: operations["sendListenerTestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/listeners/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Listener identifier.
                 * @example 3c1d9e2f-6a7b-4c8d-9e0f-1a2b3c4d5e6f
                 */
                id: components["parameters"]["ListenerId"];
            };
            cookie?: never;
        };
        /**
         * One of the calling key's listeners
         * @description `stablepay listen` asks for its listener every second: a 404 means the registry was lost (the simulator restarted), a new `merchantId` that the simulator was reset.
         */
        get: operations["getListener"];
        put?: never;
        post?: never;
        /**
         * Stop a listener
         * @description No further delivery or retry goes to it; the key's other listeners keep theirs.
         */
        delete: operations["deleteListener"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Virtual time (`now = wall time + offsetMs`). */
        ClockState: {
            now: components["schemas"]["Timestamp"];
            offsetMs: number;
        };
        /** @description A test clock (`now = sandbox time + its own offset`); `offsetMs` is from wall time. */
        TestClock: {
            id: string;
            now: components["schemas"]["Timestamp"];
            offsetMs: number;
        };
        MerchantResetResult: {
            merchantId: components["schemas"]["Uuid"];
            now: components["schemas"]["Timestamp"];
            removed: {
                payments: number;
                payouts: number;
                deliveries: number;
                transactions: number;
            };
        };
        ClockAdvanceRequest: {
            /** @description Milliseconds to move forward. */
            ms: number;
        };
        ClockSetRequest: {
            /**
             * Format: date-time
             * @description New virtual time; must not be earlier than the current one.
             */
            now: string;
        };
        ResetRequest: {
            /** @description The default merchant's key after the reset. */
            apiKey?: string;
        };
        ListenerCreateRequest: {
            /**
             * Format: uri
             * @description Absolute http or https URL the deliveries go to.
             */
            url: string;
            /** @description The secret every delivery to this listener is signed with. */
            secret: string;
            /** @description Only these events; every event when absent or null. */
            events?: components["schemas"]["WebhookEventType"][] | null;
        };
        ControlListener: {
            /** Format: uuid */
            id: string;
            url: string;
            events: components["schemas"]["WebhookEventType"][] | null;
            secretLast4: string;
            /** @description The merchant the key authenticates as now (a new one after a reset). */
            merchantId: string;
            createdAt: components["schemas"]["Timestamp"];
        };
        ControlListenerList: {
            data: components["schemas"]["ControlListener"][];
        };
        ControlListenerTestResult: {
            /** @description How many listeners the test event goes to. */
            listeners: number;
        };
        ResetResult: {
            now: components["schemas"]["Timestamp"];
            /** @description The new default merchant. */
            merchantId: string;
            /** @description The default merchant's API key. */
            apiKey: string;
        };
        ClockAdvanceResult: {
            now: components["schemas"]["Timestamp"];
            /** @description Number of timers that fell due and ran. */
            firedTimers: number;
        };
        /** @description The (chain, token) pair the customer or payer chooses. */
        PairSelection: {
            chainId: components["schemas"]["ChainId"];
            token: components["schemas"]["Token"];
        };
        /** @description Failure to record; fields left out take defaults. With chains the held user operation is dropped before it reaches the chain, so the default is a bundler rejection (`USER_OPERATION_REJECTED`, source `bundler`); the instant driver (`--no-chains`) defaults to a chain revert (`TRANSACTION_REVERTED`, source `chain`). */
        FailRequest: {
            code?: string;
            /** @enum {string} */
            source?: "chain" | "bundler" | "service";
            message?: string;
        };
        MerchantCreateRequest: {
            name?: string | null;
            /** @description Settlement wallet (0x + 40 hex; EIP-55 checksum when mixed case). Default a fresh address. */
            walletAddress?: string;
            redirectUrl?: components["schemas"]["RedirectUrl"];
            /** @description The id of a test clock (`POST /clocks`) the merchant lives on; absent, the merchant has a clock of its own. */
            testClock?: string;
        };
        MerchantUpdateRequest: {
            name?: string | null;
            walletAddress?: string;
            redirectUrl?: components["schemas"]["RedirectUrl"];
        };
        /** @description Where the hosted page sends the customer after a successful payment (absolute http or https URL), or null for none. */
        RedirectUrl: string | null;
        Merchant: {
            id: components["schemas"]["Uuid"];
            name: string | null;
            walletAddress: string;
            redirectUrl: components["schemas"]["RedirectUrl"];
            /** @description The test clock the merchant lives on; null when it has a clock of its own. */
            testClock?: string | null;
            createdAt: components["schemas"]["Timestamp"];
        };
        MerchantCreated: {
            merchant: components["schemas"]["Merchant"];
            apiKey: components["schemas"]["ApiKeyWithSecret"];
        };
        /** @description Either `expiresInDays` (null for never) or `expiresAt` (any instant, also past), not both. */
        ControlApiKeyCreateRequest: {
            expiresInDays?: number | null;
            /** Format: date-time */
            expiresAt?: string;
            ipWhitelist?: components["schemas"]["IpAddressOrCidr"][];
        };
        /** @description Token units per 1 unit of fiat, six decimals, greater than zero. */
        Rate: string;
        ExchangeRates: {
            /** @description Every supported currency with its rate. */
            rates: {
                [key: string]: components["schemas"]["Rate"];
            };
        };
        ExchangeRatesUpdate: {
            /** @description The currencies to change, with their new rates. */
            rates: {
                [key: string]: components["schemas"]["Rate"];
            };
        };
        RateLimitSettings: {
            limit: number;
            windowSeconds: number;
        };
        PayoutCreateRequest: {
            amount: components["schemas"]["FiatAmount"];
            currency: components["schemas"]["Currency"];
            recipientAddress: components["schemas"]["Address"];
            externalId?: string;
            /** Format: date-time */
            expiresAt?: string;
        };
        /** @description One local chain. */
        ChainHealth: {
            chainId: components["schemas"]["ChainId"];
            name?: string;
            blockNumber: number;
        };
        Health: {
            /** @constant */
            status: "ok";
            chains: components["schemas"]["ChainHealth"][];
            /** @description Faults injected at startup (`--inject-fault`); present only when at least one is on. */
            faults?: string[];
        };
        /**
         * Format: date-time
         * @description ISO 8601 date-time in UTC with millisecond precision and a trailing Z.
         */
        Timestamp: string;
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
        /** @description Body of a 404 (shape assumed). */
        NotFoundError: components["schemas"]["ErrorBody"] & {
            /** @constant */
            statusCode?: 404;
            /** @constant */
            error?: "Not Found";
        };
        /**
         * Format: uuid
         * @description Identifier (UUID string).
         */
        Uuid: string;
        /** @description Body of a 401 (shape assumed). */
        UnauthorizedError: components["schemas"]["ErrorBody"] & {
            /** @constant */
            statusCode?: 401;
            /** @constant */
            error?: "Unauthorized";
        };
        /**
         * @description Fiat amount as a decimal string with 0-2 decimal places (forms like `100`, `100.5`,
         *     `100.00`), at most 1,000,000,000,000 (`x-maximum`). No leading zeros, sign or exponent
         *     (grammar assumed).
         */
        FiatAmount: string;
        /**
         * @description One of the 14 supported fiat currencies. JPY, IDR and VND are zero-decimal.
         * @enum {string}
         */
        Currency: "AED" | "ARS" | "BRL" | "EUR" | "GBP" | "IDR" | "ILS" | "JPY" | "MXN" | "NGN" | "PHP" | "THB" | "USD" | "VND";
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
        /** @description EVM address, `0x` and 40 hex digits; mixed case must be a valid EIP-55 checksum (format assumed). */
        Address: string;
        /** @description A seller split in a create request; `amount` is the seller's gross amount (greater than zero, assumed). */
        SellerInput: {
            address: components["schemas"]["Address"];
            /** @description Fiat amount with 0-2 decimal places. */
            amount: string & unknown;
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
        /**
         * @description ACTIVE (created, waiting for the customer; initial), PROCESSING (customer chose chain and
         *     token and submitted), SUCCESSFUL (confirmed on-chain), FAILED (reverted or bundler error),
         *     EXPIRED (expiresAt reached without completion), CANCELLED (cancelled by the merchant).
         *     Transitions only move forward.
         * @enum {string}
         */
        PaymentStatus: "ACTIVE" | "PROCESSING" | "SUCCESSFUL" | "FAILED" | "EXPIRED" | "CANCELLED";
        /** @description A seller split as returned; `amount` is the seller's amount after its share of the service fee. */
        Seller: {
            address: components["schemas"]["Address"];
            amount: components["schemas"]["FiatAmount"];
        };
        /** @description Locked rate, token units per 1 unit of fiat, as a decimal string (six decimals, assumed). */
        ExchangeRate: string & unknown;
        /** @description Amount in whole token units as a decimal string (six decimals, assumed), or null. */
        NullableTokenAmount: ((string & unknown) | null) & unknown;
        /** @description On-chain transaction hash (`0x` and 64 hex digits, format assumed), or null. */
        TxHash: string | null;
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
         * Format: date-time
         * @description ISO 8601 date-time in UTC with millisecond precision and a trailing Z, or null.
         */
        NullableTimestamp: string | null;
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
        /** @description A 409 conflict. */
        ConflictError: components["schemas"]["ErrorBody"] & {
            /** @constant */
            statusCode?: 409;
            /** @constant */
            error?: "Conflict";
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
        /** @description A new API key record with the key, shown only once (assumed shape). */
        ApiKeyWithSecret: {
            /** @description The secret key. */
            key: string;
        } & components["schemas"]["ApiKeyFields"];
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
        /**
         * @description Event types of the webhook deliveries.
         * @enum {string}
         */
        WebhookEventType: "payment.created" | "payment.processing" | "payment.completed" | "payment.failed" | "payment.expired" | "payment.cancelled" | "payout.created" | "payout.processing" | "payout.completed" | "payout.failed" | "payout.expired" | "payout.cancelled" | "test";
    };
    responses: {
        /** @description No listener with this id belongs to the calling key. */
        ListenerNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["NotFoundError"];
            };
        };
        /** @description The key already has 20 listeners. */
        TooManyListeners: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ConflictError"];
            };
        };
        /** @description Validation failed; one `errors` element per invalid field. */
        ValidationFailed: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ValidationError"];
            };
        };
        /** @description The request is invalid (bad body, unknown pair, expired payment, clock moved backwards). */
        InvalidRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The merchant's API key is missing or invalid. */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UnauthorizedError"];
            };
        };
        /** @description No test clock with this id. */
        TestClockNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["NotFoundError"];
            };
        };
        /** @description No payment or payout with this id. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["NotFoundError"];
            };
        };
        /** @description The externalId is in use by a live payment. */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ConflictError"];
            };
        };
        /** @description The transition is not allowed from the current status. */
        TransitionNotAllowed: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ConflictError"];
            };
        };
    };
    parameters: {
        /** @description A test clock's id (`clk_` + 24 hex digits). */
        TestClockId: string;
        /**
         * @description Listener identifier.
         * @example 3c1d9e2f-6a7b-4c8d-9e0f-1a2b3c4d5e6f
         */
        ListenerId: string;
        /**
         * @description Payment identifier.
         * @example 5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b
         */
        PaymentId: string;
        /**
         * @description Payout identifier.
         * @example 9d4c2b1a-8e7f-4a6b-9c5d-3e2f1a0b9c8d
         */
        PayoutId: string;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The clock. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClockState"];
                };
            };
        };
    };
    advanceClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ClockAdvanceRequest"];
            };
        };
        responses: {
            /** @description Time moved; timers fired. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClockAdvanceResult"];
                };
            };
            400: components["responses"]["InvalidRequest"];
        };
    };
    setClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ClockSetRequest"];
            };
        };
        responses: {
            /** @description Time moved; timers fired. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClockAdvanceResult"];
                };
            };
            400: components["responses"]["InvalidRequest"];
        };
    };
    createTestClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new test clock. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestClock"];
                };
            };
        };
    };
    getTestClock: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A test clock's id (`clk_` + 24 hex digits). */
                clockId: components["parameters"]["TestClockId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The test clock. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestClock"];
                };
            };
            404: components["responses"]["TestClockNotFound"];
        };
    };
    advanceTestClock: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A test clock's id (`clk_` + 24 hex digits). */
                clockId: components["parameters"]["TestClockId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ClockAdvanceRequest"];
            };
        };
        responses: {
            /** @description Time moved; timers fired. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClockAdvanceResult"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            404: components["responses"]["TestClockNotFound"];
        };
    };
    setTestClock: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A test clock's id (`clk_` + 24 hex digits). */
                clockId: components["parameters"]["TestClockId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ClockSetRequest"];
            };
        };
        responses: {
            /** @description Time moved; timers fired. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClockAdvanceResult"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            404: components["responses"]["TestClockNotFound"];
        };
    };
    resetMerchant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The merchant's world is empty and its clock at the sandbox time. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MerchantResetResult"];
                };
            };
            401: components["responses"]["Unauthorized"];
        };
    };
    reset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ResetRequest"];
            };
        };
        responses: {
            /** @description Everything is as at start-up. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResetResult"];
                };
            };
            400: components["responses"]["InvalidRequest"];
        };
    };
    dashboardCreatePayment: {
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
            /** @description Created; `payment.created` is emitted. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["Conflict"];
        };
    };
    submitPayment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Payment identifier.
                 * @example 5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b
                 */
                id: components["parameters"]["PaymentId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PairSelection"];
            };
        };
        responses: {
            /** @description The payment, now PROCESSING. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["TransitionNotAllowed"];
        };
    };
    confirmPayment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Payment identifier.
                 * @example 5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b
                 */
                id: components["parameters"]["PaymentId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payment, now SUCCESSFUL. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            404: components["responses"]["NotFound"];
            409: components["responses"]["TransitionNotAllowed"];
        };
    };
    failPayment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Payment identifier.
                 * @example 5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b
                 */
                id: components["parameters"]["PaymentId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["FailRequest"];
            };
        };
        responses: {
            /** @description The payment, now FAILED. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["TransitionNotAllowed"];
        };
    };
    payPayment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Payment identifier.
                 * @example 5b0f1a8e-7c2d-4e3f-9a1b-2c3d4e5f6a7b
                 */
                id: components["parameters"]["PaymentId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PairSelection"];
            };
        };
        responses: {
            /** @description The payment, now SUCCESSFUL. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["TransitionNotAllowed"];
        };
    };
    createMerchant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["MerchantCreateRequest"];
            };
        };
        responses: {
            /** @description The merchant and its first key. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MerchantCreated"];
                };
            };
            400: components["responses"]["InvalidRequest"];
        };
    };
    updateMerchant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MerchantUpdateRequest"];
            };
        };
        responses: {
            /** @description The merchant with its settings. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Merchant"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
        };
    };
    dashboardCreateApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ControlApiKeyCreateRequest"];
            };
        };
        responses: {
            /** @description The key (shown once). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyWithSecret"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
        };
    };
    getExchangeRates: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The full table. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExchangeRates"];
                };
            };
        };
    };
    setExchangeRates: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ExchangeRatesUpdate"];
            };
        };
        responses: {
            /** @description The full table after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExchangeRates"];
                };
            };
            400: components["responses"]["InvalidRequest"];
        };
    };
    setRateLimit: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RateLimitSettings"];
            };
        };
        responses: {
            /** @description The settings now in force. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitSettings"];
                };
            };
            400: components["responses"]["InvalidRequest"];
        };
    };
    dashboardCreatePayout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PayoutCreateRequest"];
            };
        };
        responses: {
            /** @description Created; `payout.created` is emitted. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payout"];
                };
            };
            400: components["responses"]["ValidationFailed"];
            401: components["responses"]["Unauthorized"];
        };
    };
    submitPayout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Payout identifier.
                 * @example 9d4c2b1a-8e7f-4a6b-9c5d-3e2f1a0b9c8d
                 */
                id: components["parameters"]["PayoutId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PairSelection"];
            };
        };
        responses: {
            /** @description The payout after the submit. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payout"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["TransitionNotAllowed"];
        };
    };
    confirmPayout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Payout identifier.
                 * @example 9d4c2b1a-8e7f-4a6b-9c5d-3e2f1a0b9c8d
                 */
                id: components["parameters"]["PayoutId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payout after the confirm. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payout"];
                };
            };
            404: components["responses"]["NotFound"];
            409: components["responses"]["TransitionNotAllowed"];
        };
    };
    failPayout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Payout identifier.
                 * @example 9d4c2b1a-8e7f-4a6b-9c5d-3e2f1a0b9c8d
                 */
                id: components["parameters"]["PayoutId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["FailRequest"];
            };
        };
        responses: {
            /** @description The payout after the fail. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payout"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["TransitionNotAllowed"];
        };
    };
    cancelPayout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Payout identifier.
                 * @example 9d4c2b1a-8e7f-4a6b-9c5d-3e2f1a0b9c8d
                 */
                id: components["parameters"]["PayoutId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payout after the cancel. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payout"];
                };
            };
            404: components["responses"]["NotFound"];
            409: components["responses"]["TransitionNotAllowed"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The simulator is up. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    listListeners: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ControlListenerList"];
                };
            };
            401: components["responses"]["Unauthorized"];
        };
    };
    createListener: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ListenerCreateRequest"];
            };
        };
        responses: {
            /** @description The listener (its secret is never echoed). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ControlListener"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["TooManyListeners"];
        };
    };
    sendListenerTestEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued; how many listeners it goes to. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ControlListenerTestResult"];
                };
            };
            401: components["responses"]["Unauthorized"];
        };
    };
    getListener: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Listener identifier.
                 * @example 3c1d9e2f-6a7b-4c8d-9e0f-1a2b3c4d5e6f
                 */
                id: components["parameters"]["ListenerId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The listener. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ControlListener"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ListenerNotFound"];
        };
    };
    deleteListener: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Listener identifier.
                 * @example 3c1d9e2f-6a7b-4c8d-9e0f-1a2b3c4d5e6f
                 */
                id: components["parameters"]["ListenerId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ListenerNotFound"];
        };
    };
}
