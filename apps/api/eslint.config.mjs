import baseConfig from '../../eslint.config.mjs';

export default [
  ...baseConfig,
  {
    files: ['**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@nestjs/platform-fastify',
              importNames: ['RouteConfig'],
              message: 'Use @RouteRules() from http/route-rules: @RouteConfig replaces the route config, @Public() included.',
            },
          ],
        },
      ],
    },
  },
];
