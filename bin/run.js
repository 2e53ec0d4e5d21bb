#!/usr/bin/env node
import { execute } from '@oclif/core/execute';

await execute({ dir: import.meta.url });
