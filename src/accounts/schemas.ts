// The accounts routes' input schemas, shared by the REST routes and the MCP tools.
import Type from 'typebox';
import { PlatformName } from '../platforms/registry.ts';

export const ListAccountsQuery = Type.Object({ platform: Type.Optional(PlatformName) }, { additionalProperties: false });
