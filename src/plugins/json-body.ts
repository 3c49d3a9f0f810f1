// The JSON body parser of every route that takes JSON (application/json everywhere, and
// text/plain on the analytics route, which the widget posts with sendBeacon): Fastify's own
// parser with prototype poisoning refused, an empty body read as no body (clients send the
// header on bodiless POSTs), and a body nesting arrays and objects deeper than MAX_JSON_DEPTH
// refused before it is parsed, since every later walk over it recurses (secure-json-parse's
// prototype scan, the validator, JSON.stringify into jsonb) and would exhaust the stack.
import type { FastifyInstance } from 'fastify';
import { createValidationError } from '../lib/errors.ts';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from '../lib/json.ts';

export const TOO_DEEP_MESSAGE = `The body may not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`;

/** Reads bodies of `contentType` as JSON in this scope (replacing any parser it had). */
export function addJsonBodyParser(app: FastifyInstance, contentType: string) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  if (app.hasContentTypeParser(contentType)) app.removeContentTypeParser(contentType);
  app.addContentTypeParser(contentType, { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    if (jsonNestsDeeperThan(text)) {
      // A rule on what the body says, not malformed JSON: the route's validation status.
      const status = request.routeOptions.config?.validationStatus ?? 422;
      return done(createValidationError({ body: [TOO_DEEP_MESSAGE] }, status));
    }
    parseJson(request, text, done);
  });
}
