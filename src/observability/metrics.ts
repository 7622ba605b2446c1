// Prometheus metrics (prom-client), one registry built at start-up and passed to whoever records.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'herald_' });
  return {
    registry,
    httpRequests: new Counter({
      name: 'herald_http_requests_total',
      help: 'HTTP requests by route and status code.',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'herald_http_request_duration_seconds',
      help: 'HTTP request duration by route.',
      labelNames: ['method', 'route'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    publishOutcomes: new Counter({
      name: 'herald_publish_outcomes_total',
      help: 'Platform publish attempts by platform and outcome (published or a failure category).',
      labelNames: ['platform', 'outcome'] as const,
      registers: [registry],
    }),
    schedulingLateness: new Histogram({
      name: 'herald_scheduling_lateness_seconds',
      help: 'How late scheduled targets started, after their scheduled time.',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
      registers: [registry],
    }),
    queueDepth: new Gauge({
      name: 'herald_queue_depth',
      help: 'Jobs waiting per queue.',
      labelNames: ['queue'] as const,
      registers: [registry],
    }),
    webhookDeliveries: new Counter({
      name: 'herald_webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome: delivered, retrying, failed (no attempt left), gone (410).',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    tokenRefreshFailures: new Counter({
      name: 'herald_token_refresh_failures_total',
      help: 'Token refreshes that failed, by platform.',
      labelNames: ['platform'] as const,
      registers: [registry],
    }),
    platformCalls: new Histogram({
      name: 'herald_platform_call_duration_seconds',
      help: 'Platform HTTP calls by platform and status.',
      labelNames: ['platform', 'status'] as const,
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
