import { boolean, object, string, type InferType } from 'yup';
import { baseUrlField } from '@vigie/auth';

/** The CAS record as posted (`cservice.casconfig`). */
export const casRecordInputSchema = object({
  _id: string().optional().oneOf(['cservice.casconfig'], '_id must be cservice.casconfig'),
  id: string().optional().oneOf(['cservice.casconfig'], 'id must be cservice.casconfig'),
  crecord_type: string().optional(),
  crecord_name: string().optional(),
  enable: boolean().optional(),
  server: baseUrlField('server').required('server is required'),
  service: baseUrlField('service').required('service is required'),
  default_role: string().required('default_role is required').max(255),
  title: string().optional().max(255),
});

/** The record as answered. */
export const casRecordSchema = object({
  _id: string().required(),
  id: string().required(),
  crecord_type: string().required(),
  crecord_name: string().required(),
  enable: boolean().required(),
  server: string().required().meta({ description: 'Base URL of the CAS server (`<server>/login`, `<server>/serviceValidate`)' }),
  service: string().required().meta({ description: "Vigie's external base URL; the CAS service is `<service>/auth/cas/login`" }),
  default_role: string().required(),
  title: string().required().meta({ description: 'Label of the button on the login page' }),
});

export type CasRecordOutput = InferType<typeof casRecordSchema>;
