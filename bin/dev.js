#!/usr/bin/env -S node --import tsx --no-warnings
// Runs nrictl from the TypeScript sources (commands/ and src/), without a build.
import { execute } from '@oclif/core';

await execute({ development: true, dir: import.meta.url });
