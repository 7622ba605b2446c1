// POST /v1/posts/validate (API.md section 12): every check of a create, without creating anything, and
// every problem at once. The checks are the create's own (rules.ts, compose.ts); here they report all
// they find instead of stopping at the first, with each target's verdict and its character count as the
// platform counts it.
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { ApiError } from '../contract/errors.ts';
import { ajvToApiError } from '../contract/validation.ts';
import type { AccountsDal } from '../accounts/accounts-dal.ts';
import type { Clock } from '../lib/clock.ts';
import { fromJson } from '../lib/json.ts';
import { descriptorOf, type Platform } from '../platforms/registry.ts';
import type { AccountMeta } from '../platforms/types.ts';
import { accountProblems, ruleProblems, type Validators } from './compose.ts';
import { resolveLibraryMedia, type LibraryReader } from './library-media.ts';
import { checkTargets, resolveMode, type Mode } from './rules.ts';
import { CreatePostBodySchema, type CreatePostInput } from './schemas.ts';
import { inlineRefs } from '../contract/components.ts';

export interface Problem {
  param: string | null;
  code: string;
  message: string;
}

export interface TargetVerdict {
  platform: Platform;
  accountId: string;
  valid: boolean;
  errors: Problem[];
  characters: { used: number; limit: number };
}

export interface Verdict {
  valid: boolean;
  errors: Problem[];
  targets: TargetVerdict[];
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
// Every schema error at once (the routes' own validator stops at the first).
const checkSchema = addFormats(new Ajv({ allErrors: true, strict: false, allowUnionTypes: true, coerceTypes: false })).compile<CreatePostInput>(inlineRefs(CreatePostBodySchema));

const problem = (e: ApiError): Problem => ({ param: e.param ?? null, code: e.b?.code ?? e.code, message: e.message });

export function createValidateService(deps: { clock: Clock; accounts: AccountsDal; validators: Validators; library: LibraryReader }) {
  const { clock, accounts, validators } = deps;
  return {
    async validate(apiKeyId: string, input: unknown): Promise<Verdict> {
      if (!checkSchema(input)) {
        // One problem per place: Ajv may report several keywords for one field.
        const seen = new Set<string>();
        const errors = (checkSchema.errors ?? [])
          .map((e) => problem(ajvToApiError([e], 'body')))
          .filter((p) => !seen.has(`${p.param}|${p.code}`) && seen.add(`${p.param}|${p.code}`));
        return { valid: false, errors, targets: [] };
      }
      const errors: Problem[] = [];
      // Library media first: the rules below see every item with its type and URL.
      const library = await resolveLibraryMedia(apiKeyId, input, deps.library);
      const body = library.body;
      errors.push(...library.problems.map(problem));
      let mode: Mode = 'now';
      try {
        mode = resolveMode(body, clock.now()).mode;
      } catch (err) {
        errors.push(problem(err as ApiError));
      }
      const { targets, problems } = checkTargets(body, mode);
      errors.push(...problems.map(problem));
      const found = await accounts.findForTargets(apiKeyId, targets);
      const { metas, problems: accountErrors } = accountProblems(targets, found);
      const rules = ruleProblems(targets, metas, validators, library.rows);

      // Each target of the body, with what concerns it: its own field problems, its account, its rules.
      const verdicts: TargetVerdict[] = (body.platforms ?? []).map((t, index) => {
        const own = [...library.problems, ...problems, ...accountErrors].filter((e) => e.param?.startsWith(`platforms[${index}]`)).map(problem);
        const broken = (rules.get(index) ?? []).map(problem);
        const resolved = targets.find((r) => r.index === index);
        const meta = metas.get(index) ?? fromJson<AccountMeta>(found.get(`${t.platform}:${t.accountId}`)?.meta ?? null, {});
        const text = resolved?.content.content ?? t.customContent ?? body.content ?? '';
        return {
          platform: t.platform as Platform,
          accountId: t.accountId,
          valid: own.length === 0 && broken.length === 0 && resolved !== undefined,
          errors: [...own, ...broken],
          characters: descriptorOf(t.platform as Platform).characters(text, { meta }),
        };
      });
      errors.push(...accountErrors.map(problem), ...[...rules.values()].flat().map(problem));
      return { valid: errors.length === 0, errors, targets: verdicts };
    },
  };
}

export type ValidateService = ReturnType<typeof createValidateService>;
