import { buildAdminOpenApiDocument } from '@risk/admin-api';
import { buildPublicOpenApiDocument } from '@risk/public-api';
import { checkOpenApiExamples } from '@risk/testing';

// Examples on every operation of both documents, each matching its own schema
// (docs/architecture.md "Examples"). A failure names the operation and what is missing or wrong.
describe('OpenAPI examples', () => {
  // built in-process as the SDK's generator builds them (scripts/openapi-types.ts)
  const documents: Record<string, unknown> = {
    'public API': buildPublicOpenApiDocument('https://api.example.com'),
    'admin API': buildAdminOpenApiDocument(),
  };

  test.each(Object.keys(documents))('%s: every request body and success response has a valid example', (name) => {
    const problems = checkOpenApiExamples(documents[name]);
    expect(problems).toEqual([]);
  });

  test('the checker names the operation and what it lacks, and rejects an example off its schema', () => {
    const problems = checkOpenApiExamples({
      paths: {
        '/v1/things': {
          post: {
            operationId: 'postThings',
            requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
            responses: {
              '201': {
                content: {
                  'application/json': {
                    schema: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
                    example: { id: 42 },
                  },
                },
              },
            },
          },
        },
      },
    });
    expect(problems).toEqual([
      expect.stringMatching(/^POST \/v1\/things \(postThings\): no example for the request body/),
      expect.stringMatching(
        /^POST \/v1\/things \(postThings\): the 201 response example .* does not match .*must be string/,
      ),
    ]);
  });
});
