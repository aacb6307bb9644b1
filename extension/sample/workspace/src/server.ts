// A tiny HTTP server that uses the rate limiter.

import { createServer } from 'http';
import { createLimiterFromEnv } from './rateLimiter';

const limiter = createLimiterFromEnv(process.env);

export const server = createServer(async (request, response) => {
  if (!limiter.tryAcquire()) {
    response.statusCode = 429;
    response.end('Too many requests');
    return;
  }
  response.end(`Hello from ${request.url}`);
});

server.listen(Number(process.env.PORT ?? 8080));
