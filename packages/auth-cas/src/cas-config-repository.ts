import { injectable } from 'tsyringe';
import type { InferType } from 'yup';
import { injectRef, type Doc } from '@vigie/kernel';
import { identityRecordsRef, type IdentityRecords } from '@vigie/auth';
import type { CasRecordOutput, casRecordInputSchema } from './schemas.js';

export const casRecordId = 'cservice.casconfig';

/** The CAS record as stored in `object` (the original's collection): the record as answered, without `id`. */
export interface CasRecord extends Doc, Omit<CasRecordOutput, 'id'> {
  _id: typeof casRecordId;
  crecord_type: 'cservice';
  crecord_name: 'casconfig';
}

/** A posted record, once validated. */
export type CasRecordInput = InferType<typeof casRecordInputSchema>;

export type PublicCasRecord = CasRecord & { id: string };

@injectable()
export class CasConfigRepository {
  constructor(@injectRef(identityRecordsRef) private readonly records: IdentityRecords) {}

  async save(input: CasRecordInput): Promise<PublicCasRecord> {
    const record: CasRecord = {
      _id: casRecordId,
      crecord_type: 'cservice',
      crecord_name: 'casconfig',
      // Posting a configuration means wanting it: enabled unless said otherwise.
      enable: input.enable ?? true,
      server: input.server.replace(/\/+$/, ''),
      service: input.service.replace(/\/+$/, ''),
      default_role: input.default_role,
      title: input.title ?? 'CAS',
    };
    await this.records.put(record);
    return { ...record, id: casRecordId };
  }

  async get(): Promise<PublicCasRecord | null> {
    const record = await this.records.get<CasRecord>(casRecordId);
    return record ? { ...record, id: casRecordId } : null;
  }
}
