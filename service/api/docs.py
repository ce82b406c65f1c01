"""GET /docs: Swagger UI on the served contract (GET /openapi.yaml), every asset served here.

The page, its scripts and its stylesheets come from the flask-swagger-ui package (Swagger UI's
own distribution files, no CDN and no web fonts): the documentation works with no internet
access, as the service may run.
"""

from __future__ import annotations

from flask import Flask
from flask_swagger_ui import get_swaggerui_blueprint

PREFIX = "/docs"


def init_app(app: Flask) -> None:
    blueprint = get_swaggerui_blueprint(
        PREFIX,
        "/openapi.yaml",
        config={
            "app_name": "Zung Jung Scoring Service",
            "deepLinking": True,
            # A path, not the package's absolute URL built from the request's Host header.
            "oauth2RedirectUrl": f"{PREFIX}/oauth2-redirect.html",
        },
        blueprint_name="docs",
    )
    app.register_blueprint(blueprint)
    # /docs itself shows the page as /docs/ does (the assets' URLs are absolute).
    app.add_url_rule(PREFIX, "docs_page", app.view_functions["docs.show"])
