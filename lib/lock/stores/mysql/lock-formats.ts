// The formats MySQL and MariaDB sources hold: named locks (GET_LOCK, a session's) and lock rows of the tools' tables.
import { toolFormats } from '../../shared-formats';
import { declareFormats, type FormatDeclaration } from '../types';

export const MYSQL_OWN_FORMATS = declareFormats([
  {
    id: 'mysql-named-lock',
    label: 'Named lock',
    words: 'GET_LOCK held by a connection (performance_schema.metadata_locks), ended with its session.',
    formerly: 'advisory',
  },
  {
    id: 'quartz',
    label: 'Quartz scheduler lock',
    words: 'A QRTZ_LOCKS row Quartz holds with SELECT … FOR UPDATE: shown, never released.',
    formerly: 'plain',
  },
]);
export const mysqlFormats: readonly FormatDeclaration[] = [
  ...MYSQL_OWN_FORMATS,
  ...toolFormats('shedlock', 'liquibase', 'laravel'),
];
