// /billing/* (AUTH) and POST /webhooks/paddle (PUBLIC, signed by Paddle). Both scopes answer
// 503 not_configured before anything else when Paddle is not set up.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerSecurity } from '../../lib/schemas.ts';
import { requireAuth } from '../auth/auth.plugin.ts';
import {
  billingFieldsSchema,
  billingPlanSchema,
  checkoutBodySchema,
  checkoutSchema,
  invoicePdfParamsSchema,
  invoicePdfSchema,
  invoiceSchema,
  portalSchema,
  webhookAckSchema,
} from './billing.schemas.ts';

const tags = ['billing'];

/** /billing/*: a token, and Paddle configured (503 first, before the token is checked). */
const accountRoutes: FastifyPluginAsyncZod = async (api) => {
  const billing = api.deps.services.billing;
  api.addHook('onRequest', async () => billing.assertConfigured());
  api.addHook('onRequest', api.authenticate);

  api.get(
    '/billing/plans',
    {
      schema: {
        tags,
        operationId: 'billingPlans',
        summary: 'The plans a checkout offers: each tier with its configured Paddle price id',
        security: bearerSecurity,
        response: { 200: z.array(billingPlanSchema) },
      },
    },
    async () => billing.plans(),
  );

  api.post(
    '/billing/checkout',
    {
      schema: {
        tags,
        operationId: 'billingCheckout',
        summary: 'Start a Paddle checkout for one of the offered prices',
        security: bearerSecurity,
        body: checkoutBodySchema,
        response: { 200: checkoutSchema },
      },
    },
    async (request) => billing.checkout(requireAuth(request).user, request.body),
  );

  api.post(
    '/billing/portal',
    {
      schema: {
        tags,
        operationId: 'billingPortal',
        summary: "A link to Paddle's customer portal",
        security: bearerSecurity,
        response: { 200: portalSchema },
      },
    },
    async (request) => billing.portal(requireAuth(request).user),
  );

  api.post(
    '/billing/sync',
    {
      schema: {
        tags,
        operationId: 'billingSync',
        summary: "Fetch the subscription from Paddle and apply it; the user's billing fields",
        security: bearerSecurity,
        response: { 200: billingFieldsSchema },
      },
    },
    async (request) => billing.sync(requireAuth(request).user),
  );

  api.get(
    '/billing/invoices',
    {
      schema: {
        tags,
        operationId: 'billingInvoices',
        summary: 'Billed and completed transactions, newest first',
        security: bearerSecurity,
        response: { 200: z.array(invoiceSchema) },
      },
    },
    async (request) => billing.invoices(requireAuth(request).user),
  );

  api.get(
    '/billing/invoices/:transactionId/pdf',
    {
      schema: {
        tags,
        operationId: 'billingInvoicePdf',
        summary: "A short-lived link to one of the caller's invoice PDFs",
        security: bearerSecurity,
        params: invoicePdfParamsSchema,
        response: { 200: invoicePdfSchema },
      },
    },
    async (request) => billing.invoicePdf(requireAuth(request).user, request.params.transactionId),
  );
};

/** POST /webhooks/paddle: no token; Paddle's signature over the raw body instead. */
const webhookRoutes: FastifyPluginAsyncZod = async (webhook) => {
  const billing = webhook.deps.services.billing;
  webhook.addHook('onRequest', async () => billing.assertWebhookConfigured());
  // The signature covers the body exactly as sent, so this scope (and only it) takes every
  // body as a raw string; the service parses the JSON after the signature check.
  webhook.removeAllContentTypeParsers();
  webhook.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  webhook.post(
    '/webhooks/paddle',
    {
      schema: {
        tags,
        operationId: 'paddleWebhook',
        summary: 'Paddle notifications (signed with Paddle-Signature)',
        security: [],
        response: { 200: webhookAckSchema },
      },
    },
    async (request) =>
      billing.handleWebhook(
        typeof request.body === 'string' ? request.body : '',
        request.headers['paddle-signature'],
      ),
  );
};

export const billingRoutes: FastifyPluginAsyncZod = async (app) => {
  // Two encapsulated scopes: the raw-body parser of the webhook applies to it alone.
  await app.register(accountRoutes);
  await app.register(webhookRoutes);
};
