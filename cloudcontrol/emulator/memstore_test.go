package emulator

import (
	"slices"
	"sync"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// memStore is an in-memory cloudcontrol.Store for tests.
type memStore struct {
	mu     sync.Mutex
	models map[string]map[string][]byte
}

var _ cloudcontrol.Store = (*memStore)(nil)

func newMemStore() *memStore { return &memStore{models: map[string]map[string][]byte{}} }

func (s *memStore) Get(typeName, id string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.models[typeName][id]
	if !ok {
		return nil, cloudcontrol.ErrNotFound
	}
	return slices.Clone(m), nil
}

func (s *memStore) Insert(typeName, id string, model []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.models[typeName][id]; ok {
		return cloudcontrol.ErrExists
	}
	if s.models[typeName] == nil {
		s.models[typeName] = map[string][]byte{}
	}
	s.models[typeName][id] = slices.Clone(model)
	return nil
}

func (s *memStore) Put(typeName, id string, model []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.models[typeName][id]; !ok {
		return cloudcontrol.ErrNotFound
	}
	s.models[typeName][id] = slices.Clone(model)
	return nil
}

func (s *memStore) Delete(typeName, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.models[typeName][id]; !ok {
		return cloudcontrol.ErrNotFound
	}
	delete(s.models[typeName], id)
	return nil
}

func (s *memStore) List(typeName, after string, limit int) ([]string, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []string
	for id := range s.models[typeName] {
		if id > after {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	if len(ids) > limit {
		return ids[:limit], true, nil
	}
	return ids, false, nil
}
