export * from './redaction/detectors';
export * from './redaction/redactor';
export * from './redaction/tenant-rules';
export * from './segments/log-key-ring';
export * from './segments/sealed-segment';
