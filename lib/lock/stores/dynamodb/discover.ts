// Discovery on DynamoDB: `dynamodb://` lists the account's tables (ListTables, up to 100 a request); each is then
// listed as `ls dynamodb://TABLE` lists it, so only tables holding Terraform's or the lock client's items show.
// Terraform's s3 backend with dynamodb_table keeps its lock as an item of that table.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { TargetError, type Discovery } from '../discovery';

export function dynamoDiscovery(
  clientFor: (env: Record<string, string | undefined>) => Promise<DynamoDBClient>,
): Discovery {
  return {
    target: 'dynamodb:// (every table)',
    targetOf: () => 'dynamodb://',
    async roots(target, c) {
      if (!/^dynamodb:\/\/\/?$/.test(target))
        throw new TargetError(`expected dynamodb://, got ${JSON.stringify(target)}`);
      const [client, { ListTablesCommand }] = await Promise.all([clientFor(c.env), import('@aws-sdk/client-dynamodb')]);
      const roots: string[] = [];
      let start: string | undefined;
      do {
        if (!c.spend()) return { roots, problems: [], capped: true };
        const Limit = Math.min(100, c.limit - roots.length);
        const page = await client.send(new ListTablesCommand({ Limit, ExclusiveStartTableName: start }));
        roots.push(...(page.TableNames ?? []).map((t) => `dynamodb://${t}`));
        start = page.LastEvaluatedTableName;
      } while (start && roots.length < c.limit);
      return { roots, problems: [], capped: start !== undefined };
    },
    terraform(type, a) {
      if (type !== 's3' || !a.dynamodb_table) return undefined;
      return { sources: [`dynamodb://${a.dynamodb_table}`], problems: [] };
    },
  };
}
