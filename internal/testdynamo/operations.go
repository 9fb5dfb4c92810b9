package testdynamo

import (
	"net/http"
)

// dispatch decodes the body for op, an X-Amz-Target operation name,
// and runs it.
func (s *Server) dispatch(op string, body []byte) (any, *apiError) {
	switch op {
	case "CreateTable":
		return s.createTable(body)
	case "DescribeTable":
		return s.describeTable(body)
	case "PutItem":
		return s.putItem(body)
	case "GetItem":
		return s.getItem(body)
	case "DeleteItem":
		return s.deleteItem(body)
	}
	return nil, &apiError{code: "UnknownOperationException",
		message: "testdynamo does not implement " + op, status: http.StatusBadRequest}
}

// writeRequest is PutItem's and DeleteItem's body.
type writeRequest struct {
	TableName                 string
	Item                      map[string]attrValue // PutItem
	Key                       map[string]attrValue // DeleteItem
	ConditionExpression       string
	ExpressionAttributeNames  map[string]string
	ExpressionAttributeValues map[string]attrValue
	ReturnValues              string
}

type getRequest struct {
	TableName                string
	Key                      map[string]attrValue
	ConsistentRead           bool
	ProjectionExpression     string
	ExpressionAttributeNames map[string]string
}

// lookup returns the named table; the caller holds s.mu.
func (s *Server) lookup(name string) (*table, *apiError) {
	if name == "" {
		return nil, errValidation("1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null")
	}
	t, ok := s.tables[name]
	if !ok {
		return nil, errNoTable()
	}
	return t, nil
}

// prepareWrite decodes what PutItem and DeleteItem share: the table,
// the item's key and the condition.
func (s *Server) prepareWrite(r *writeRequest, keyAttrs map[string]attrValue) (*table, string, condition, *apiError) {
	if r.ReturnValues != "" && r.ReturnValues != "NONE" {
		return nil, "", nil, errValidation("testdynamo supports only ReturnValues NONE")
	}
	x, e := newExprNames(r.ExpressionAttributeNames, r.ExpressionAttributeValues)
	if e != nil {
		return nil, "", nil, e
	}
	cond, e := parseCondition(r.ConditionExpression, x)
	if e != nil {
		return nil, "", nil, e
	}
	if e := x.unused(); e != nil {
		return nil, "", nil, e
	}
	attrs, e := decodeItem(keyAttrs)
	if e != nil {
		return nil, "", nil, e
	}
	t, e := s.lookup(r.TableName)
	if e != nil {
		return nil, "", nil, e
	}
	if r.Item != nil {
		// PutItem: the item holds the key among its attributes.
		v, ok := attrs[t.key]
		if !ok {
			return nil, "", nil, errValidation("One or more parameter values were invalid: Missing the key " + t.key + " in the item")
		}
		attrs = map[string]string{t.key: v}
	}
	key, e := t.keyOf(attrs)
	return t, key, cond, e
}

func (s *Server) putItem(body []byte) (any, *apiError) {
	var r writeRequest
	if e := decode(body, &r); e != nil {
		return nil, e
	}
	if r.Item == nil || r.Key != nil {
		return nil, errValidation("PutItem takes Item")
	}
	item, e := decodeItem(r.Item)
	if e != nil {
		return nil, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, key, cond, e := s.prepareWrite(&r, r.Item)
	if e != nil {
		return nil, e
	}
	if !cond(t.items[key]) {
		return nil, errConditionFailed()
	}
	t.items[key] = item
	return struct{}{}, nil
}

func (s *Server) deleteItem(body []byte) (any, *apiError) {
	var r writeRequest
	if e := decode(body, &r); e != nil {
		return nil, e
	}
	if r.Key == nil || r.Item != nil {
		return nil, errValidation("DeleteItem takes Key")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, key, cond, e := s.prepareWrite(&r, r.Key)
	if e != nil {
		return nil, e
	}
	if !cond(t.items[key]) {
		return nil, errConditionFailed()
	}
	delete(t.items, key)
	return struct{}{}, nil
}

// getItem answers with the item (projected) or, when there is none, an
// empty object: DynamoDB omits Item then.
func (s *Server) getItem(body []byte) (any, *apiError) {
	var r getRequest
	if e := decode(body, &r); e != nil {
		return nil, e
	}
	x, e := newExprNames(r.ExpressionAttributeNames, nil)
	if e != nil {
		return nil, e
	}
	projection, e := parseProjection(r.ProjectionExpression, x)
	if e != nil {
		return nil, e
	}
	if e := x.unused(); e != nil {
		return nil, e
	}
	keyAttrs, e := decodeItem(r.Key)
	if e != nil {
		return nil, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, e := s.lookup(r.TableName)
	if e != nil {
		return nil, e
	}
	key, e := t.keyOf(keyAttrs)
	if e != nil {
		return nil, e
	}
	item, ok := t.items[key]
	if !ok {
		return struct{}{}, nil
	}
	return map[string]any{"Item": encodeItem(item, projection)}, nil
}

type keySchemaElement struct {
	AttributeName, KeyType string
}

type attributeDefinition struct {
	AttributeName, AttributeType string
}

type createTableRequest struct {
	TableName             string
	KeySchema             []keySchemaElement
	AttributeDefinitions  []attributeDefinition
	BillingMode           string
	ProvisionedThroughput *struct{ ReadCapacityUnits, WriteCapacityUnits int64 }
}

// createTable makes a table with one HASH key of type S, the only kind
// the subset has.
func (s *Server) createTable(body []byte) (any, *apiError) {
	var r createTableRequest
	if e := decode(body, &r); e != nil {
		return nil, e
	}
	if len(r.KeySchema) != 1 || r.KeySchema[0].KeyType != "HASH" ||
		len(r.AttributeDefinitions) != 1 || r.AttributeDefinitions[0].AttributeType != "S" ||
		r.AttributeDefinitions[0].AttributeName != r.KeySchema[0].AttributeName {
		return nil, errValidation("testdynamo supports only tables with one HASH key of type S")
	}
	if r.TableName == "" {
		return nil, errValidation("TableName must be set")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.tables[r.TableName]; ok {
		return nil, &apiError{code: "ResourceInUseException", message: "Table already exists: " + r.TableName, status: http.StatusBadRequest}
	}
	t := newTable(r.TableName, r.KeySchema[0].AttributeName)
	s.tables[r.TableName] = t
	return map[string]any{"TableDescription": t.describe()}, nil
}

func (s *Server) describeTable(body []byte) (any, *apiError) {
	var r struct{ TableName string }
	if e := decode(body, &r); e != nil {
		return nil, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, e := s.lookup(r.TableName)
	if e != nil {
		return nil, e
	}
	return map[string]any{"Table": t.describe()}, nil
}

// describe is a TableDescription with the members a client checks.
func (t *table) describe() map[string]any {
	return map[string]any{
		"TableName":            t.name,
		"TableStatus":          "ACTIVE",
		"TableArn":             "arn:aws:dynamodb:us-east-1:000000000000:table/" + t.name,
		"KeySchema":            []keySchemaElement{{AttributeName: t.key, KeyType: "HASH"}},
		"AttributeDefinitions": []attributeDefinition{{AttributeName: t.key, AttributeType: "S"}},
		"ItemCount":            len(t.items),
		"CreationDateTime":     float64(t.created.UnixMilli()) / 1000,
		"BillingModeSummary":   map[string]string{"BillingMode": "PAY_PER_REQUEST"},
	}
}
