// Package testdynamo runs a DynamoDB server on loopback for tests: an
// HTTP server speaking DynamoDB's real wire protocol (AWS JSON 1.0:
// POST / with X-Amz-Target "DynamoDB_20120810.<Op>", bodies of
// Content-Type application/x-amz-json-1.0, errors as {"__type":
// "com.amazonaws.dynamodb.v20120810#<Code>", "message": ...} with HTTP
// 400, an X-Amz-Crc32 header the SDKs check), so that the state locking
// of Cairn, Terraform 1.5.7 (aws-sdk-go v1) and OpenTofu 1.12.6
// (aws-sdk-go-v2) is tested against one table with the real clients,
// where the real service is on the internet.
//
// It implements exactly the subset those three clients send for
// backend "s3"'s dynamodb_table, and nothing more:
//
//   - CreateTable and DescribeTable, for test setup: a table has one
//     HASH key of type S (Terraform's tables have LockID);
//   - PutItem, GetItem and DeleteItem on items whose attributes are all
//     of type S (strings): Terraform's lock item holds LockID and Info,
//     its digest item LockID and Digest;
//   - ConditionExpression of the forms attribute_not_exists(a),
//     attribute_exists(a) and a = :v (the lock's PutItem, and OpenTofu's
//     DeleteItem "Info = :info"), ProjectionExpression as a list of
//     attribute names, ExpressionAttributeNames (#n) and
//     ExpressionAttributeValues (:v), ConsistentRead (every read here is
//     consistent) and ReturnValues NONE.
//
// Anything else (another operation, a number or binary attribute, an
// expression of another form, a missing table) is the error DynamoDB
// would return for it (UnknownOperationException, ValidationException,
// ResourceNotFoundException), never a panic and never a silent success,
// so a client that starts sending something new fails its test here
// rather than passing against behaviour the server does not have.
//
// When the server is given credentials, every request's SigV4 signature
// is verified with them (over exactly the headers the client signed, as
// AWS does), so a client that signs wrongly or with other credentials is
// refused as AWS would refuse it. The server counts requests per
// operation for benchmarks (Calls).
//
// Boundary: test support, imported by tests only; it knows nothing of
// Cairn.
//
// Imports:
//
//	tests only
//	deny internal/... # test support knows nothing of Cairn
package testdynamo
