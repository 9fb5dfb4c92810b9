package testprovsrv

import (
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
)

// serve answers service discovery, the registry protocol under
// /v1/providers/, the network mirror protocol under /mirror/ and the
// release files under /files/.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests[r.URL.Path]++
	if s.fail[r.URL.Path] > 0 {
		s.fail[r.URL.Path]--
		s.mu.Unlock()
		http.Error(w, "try again", http.StatusServiceUnavailable)
		return
	}
	s.mu.Unlock()
	p := r.URL.Path
	switch {
	case p == "/.well-known/terraform.json":
		writeJSON(w, map[string]string{"providers.v1": "/v1/providers/"})
	case strings.HasPrefix(p, "/v1/providers/"):
		parts := strings.Split(strings.TrimPrefix(p, "/v1/providers/"), "/")
		if !s.authorized(r, parts[0]) {
			http.Error(w, `{"errors":["Unauthorized"]}`, http.StatusUnauthorized)
			return
		}
		s.serveRegistry(w, parts)
	case strings.HasPrefix(p, "/mirror/"):
		parts := strings.Split(strings.TrimPrefix(p, "/mirror/"), "/")
		if len(parts) > 1 && !s.authorized(r, parts[1]) {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		s.serveMirror(w, parts)
	case strings.HasPrefix(p, "/local/"):
		s.serveLocal(w, r, strings.TrimPrefix(p, "/local"))
	case r.Header.Get("Authorization") != "":
		// Terraform sends a registry token only to the registry's own
		// API: a client sending it to a release file leaks it.
		http.Error(w, "credentials sent to a release file", http.StatusBadRequest)
	default:
		s.mu.Lock()
		body, ok := s.files[p]
		s.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		// A length lets clients show how much of a download is left.
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		_, _ = w.Write(body)
	}
}

func (s *Server) lookup(ns, typ string) []Release {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.releases[ns+"/"+typ]
}

// serveRegistry: NS/TYPE/versions and NS/TYPE/VERSION/download/OS/ARCH.
func (s *Server) serveRegistry(w http.ResponseWriter, parts []string) {
	if len(parts) < 3 {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	rels := s.lookup(parts[0], parts[1])
	if len(rels) == 0 {
		http.Error(w, `{"errors":["Not Found"]}`, http.StatusNotFound)
		return
	}
	if len(parts) == 3 && parts[2] == "versions" {
		var vs []map[string]any
		for _, r := range rels {
			var plats []map[string]string
			for _, p := range append([]string{r.Platform}, r.Others...) {
				os, arch, _ := strings.Cut(p, "_")
				plats = append(plats, map[string]string{"os": os, "arch": arch})
			}
			vs = append(vs, map[string]any{"version": r.Version, "protocols": []string{"5.0"}, "platforms": plats})
		}
		writeJSON(w, map[string]any{"versions": vs})
		return
	}
	if len(parts) != 6 || parts[3] != "download" {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	for _, r := range rels {
		plat := parts[4] + "_" + parts[5]
		if r.Version == parts[2] && (r.Platform == plat || slices.Contains(r.Others, plat)) {
			writeJSON(w, s.downloadDoc(r, plat))
			return
		}
	}
	http.Error(w, "not found", http.StatusNotFound)
}

// downloadDoc uses URLs relative to the download endpoint, which clients
// must resolve against it. Each of Others is served too (its stand-in
// zip), so `providers lock -platform=...` can fetch and hash it.
func (s *Server) downloadDoc(r Release, plat string) map[string]any {
	dir := fmt.Sprintf("/files/%s/%s/%s/", r.Namespace, r.Type, r.Version)
	sums := fmt.Sprintf("terraform-provider-%s_%s_SHA256SUMS", r.Type, r.Version)
	s.mu.Lock()
	shasum := s.sums[r.Namespace+"/"+r.Type+"/"+r.Version][plat]
	s.mu.Unlock()
	os, arch, _ := strings.Cut(plat, "_")
	doc := map[string]any{
		"protocols": []string{"5.0"}, "os": os, "arch": arch,
		"filename":     ZipName(r.Type, r.Version, plat),
		"download_url": dir + ZipName(r.Type, r.Version, plat),
		"shasums_url":  dir + sums,
		"shasum":       shasum,
		"signing_keys": map[string]any{"gpg_public_keys": []map[string]string{
			{"key_id": s.key.PrimaryKey.KeyIdString(), "ascii_armor": s.KeyArmor},
		}},
	}
	if r.Fault != Unsigned {
		doc["shasums_signature_url"] = dir + sums + ".sig"
	}
	return doc
}

// serveMirror: HOST/NS/TYPE/index.json and HOST/NS/TYPE/VERSION.json,
// offering every release of the registry whatever HOST is named.
func (s *Server) serveMirror(w http.ResponseWriter, parts []string) {
	if len(parts) != 4 {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	rels := s.lookup(parts[1], parts[2])
	if len(rels) == 0 {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	if parts[3] == "index.json" {
		vs := map[string]any{}
		for _, r := range rels {
			vs[r.Version] = map[string]any{}
		}
		writeJSON(w, map[string]any{"versions": vs})
		return
	}
	for _, r := range rels {
		if parts[3] != r.Version+".json" {
			continue
		}
		s.mu.Lock()
		sums := s.sums[r.Namespace+"/"+r.Type+"/"+r.Version]
		s.mu.Unlock()
		archives := map[string]any{}
		for plat, hex := range sums {
			archives[plat] = map[string]any{
				"url":    fmt.Sprintf("../../../../files/%s/%s/%s/%s", r.Namespace, r.Type, r.Version, ZipName(r.Type, r.Version, plat)),
				"hashes": []string{"zh:" + hex},
			}
		}
		writeJSON(w, map[string]any{"archives": archives})
		return
	}
	http.Error(w, "not found", http.StatusNotFound)
}

// serveLocal serves a file under the directory ServeLocal allowed, named
// by its absolute path: a directory `providers mirror` wrote, published
// as a network mirror.
func (s *Server) serveLocal(w http.ResponseWriter, r *http.Request, path string) {
	s.mu.Lock()
	root := s.localRoot
	s.mu.Unlock()
	clean := filepath.Clean(path)
	if root == "" || !strings.HasPrefix(clean, root+string(filepath.Separator)) {
		http.NotFound(w, r)
		return
	}
	http.ServeFile(w, r, clean)
}
