vcl 4.1;
# Where deploy/varnish.vcl sends requests, and who may purge it. The one file of the two to edit:
# list your docs-server replicas and the addresses your replicas purge from, then put this file on
# Varnish's vcl_path beside varnish.vcl (/etc/varnish by default, or `-p vcl_path=<folder>`).
#
# varnish.vcl expects exactly these names: the director `docs_origin` and the ACL `docs_purgers`.

import directors;

# docs-server answers /health on its API host, and on an IP address as Host; a replica that stops answering is left
# out until it answers again (and while none answers, cached pages are served stale: see varnish.vcl).
probe docs_health {
    .request = "GET /health HTTP/1.1"
        "Host: 127.0.0.1"
        "Connection: close";
    .interval = 2s;
    .timeout = 1s;
    .window = 3;
    .threshold = 2;
}

# One backend a replica. Compose's two replicas would be docs-1:8080 and docs-2:8080.
backend docs_1 {
    .host = "127.0.0.1";
    .port = "8080";
    .probe = docs_health;
    .connect_timeout = 2s;
    .first_byte_timeout = 30s;
}

sub vcl_init {
    new docs_origin = directors.round_robin();
    docs_origin.add_backend(docs_1);
}

# The replicas (their --cdn-purge varnish:<url> purges come from them) and local administration.
acl docs_purgers {
    "127.0.0.1";
    "::1";
}
