// defineRoute types a handler's result by the route's documented response (docs/architecture.md "Routes"). The
// `@ts-expect-error` lines are the test: `pnpm typecheck` fails when a drifting handler compiles (the directive is
// then unused); the jest part checks that the routes these definitions build still run.
import { z } from 'zod';
import { defineRoute } from './route';
import { JsonResponse, RawResponse, type AuthMode } from './route-spec';

const open: AuthMode<undefined, undefined> = {
  label: 'none',
  security: [],
  errors: [],
  run: (_input, next) => next(undefined),
};

const ZThing = z.object({ object: z.literal('thing'), id: z.string(), score: z.number().int().nullable() });

const routes = {
  matching: defineRoute({
    method: 'get',
    path: '/things/:id',
    auth: open,
    params: z.object({ id: z.string() }),
    doc: { summary: 'a thing', response: { description: 'the thing', schema: ZThing } },
    handler: ({ params }) => ({ object: 'thing' as const, id: params.id, score: null }),
  }),
  missingField: defineRoute({
    method: 'get',
    path: '/things',
    auth: open,
    doc: { summary: 'a thing', response: { description: 'the thing', schema: ZThing } },
    // @ts-expect-error `score` is missing: the response schema requires it
    handler: async () => ({ object: 'thing' as const, id: 'thg_1' }),
  }),
  wrongType: defineRoute({
    method: 'get',
    path: '/things',
    auth: open,
    doc: { summary: 'a thing', response: { description: 'the thing', schema: ZThing } },
    // @ts-expect-error `score` is a string: the schema says an integer or null
    handler: async () => ({ object: 'thing' as const, id: 'thg_1', score: '3' }),
  }),
  wrongLiteral: defineRoute({
    method: 'get',
    path: '/things',
    auth: open,
    doc: { summary: 'a thing', response: { description: 'the thing', schema: ZThing } },
    // @ts-expect-error `object` is not the literal the schema fixes
    handler: () => ({ object: 'widget' as const, id: 'thg_1', score: 1 }),
  }),
  jsonOfContentMap: defineRoute({
    method: 'get',
    path: '/things.txt',
    auth: open,
    doc: {
      summary: 'a thing as JSON or text',
      response: {
        description: 'the thing',
        content: { 'application/json': { schema: ZThing }, 'text/plain': { schema: z.string() } },
      },
    },
    // @ts-expect-error the content map's application/json schema types the JSON body too
    handler: () => ({ id: 'thg_1' }),
  }),
  statusChosen: defineRoute({
    method: 'post',
    path: '/things',
    auth: open,
    doc: { summary: 'a thing', response: { description: 'the thing', schema: ZThing } },
    // @ts-expect-error a JSON body with a status of its own is checked like a plain one
    handler: () => new JsonResponse(201, { object: 'thing' as const, id: 'thg_1' }),
  }),
  raw: defineRoute({
    method: 'get',
    path: '/things.txt',
    auth: open,
    doc: { summary: 'a thing as text', response: { description: 'the thing', schema: ZThing } },
    // a response the handler builds itself is not the JSON body the schema describes
    handler: () => new RawResponse('text/plain', 'thing'),
  }),
  undocumented: defineRoute({
    method: 'get',
    path: '/anything',
    auth: open,
    doc: false,
    // no response schema: any JSON
    handler: () => ({ whatever: [1, 'two'] }),
  }),
};

describe('defineRoute response typing', () => {
  it('builds the routes whose handlers the types accept, with the schema in the operation', () => {
    expect(Object.values(routes)).toHaveLength(8);
    expect(routes.matching.openapi('/v1')?.responses[200]).toMatchObject({
      content: { 'application/json': { schema: ZThing } },
    });
    expect(routes.undocumented.openapi('/v1')).toBeUndefined();
  });
});
