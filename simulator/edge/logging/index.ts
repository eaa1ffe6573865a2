// Request and delivery-attempt logs (stablepay start --log-format pretty|json, --quiet).
export { batchedLines, type BatchedLines } from './batched-lines.ts';
export { formatRecord, lineSink, LOG_FORMATS, type LogFormat } from './format-record.ts';
export { printableUrl, type DeliveryAttemptRecord, type LogRecord, type LogSink, type RequestRecord } from './log-records.ts';
export { requestLog, requestLogStage } from './request-log.ts';
