import baseConfig from '../../eslint.config.mjs';

export default [
  ...baseConfig,
  {
    // The contract's decorated classes load @nestjs/swagger and class-validator: never in the browser's bundle.
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      // getPet is deprecated (its successor is listPets); the storefront never calls it.
      'no-restricted-properties': ['error', { property: 'getPet', message: 'getPet is deprecated: list the pets instead (listPets).' }],
      'no-restricted-imports': [
        'error',
        { paths: [{ name: '@petstore/contract/dto', message: "The storefront runs in a browser: import the contract's plain entry, @petstore/contract." }] },
      ],
    },
  },
];
