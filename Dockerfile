# The site's image: one image, three roles (web, worker, beat), chosen by the command (see compose.yaml).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    VAR_DIR=/var/lib/rugby STATIC_ROOT=/var/lib/rugby/static DEBUG=false

RUN useradd --system --create-home --home-dir /var/lib/rugby rugby
WORKDIR /opt/rugby
COPY requirements/ requirements/
RUN pip install -r requirements/base.txt
COPY . .
# Static files are part of the image (whitenoise serves them); SECRET_KEY is a throw-away one for this step only.
RUN SECRET_KEY=collectstatic-only-$(python -c "import secrets; print(secrets.token_hex(32))") \
    python manage.py collectstatic --noinput && chown -R rugby:rugby /var/lib/rugby

USER rugby
EXPOSE 8000
# The web role; compose.yaml gives the worker and beat their own commands.
CMD ["gunicorn", "config.wsgi", "--bind", "0.0.0.0:8000", "--workers", "4", "--timeout", "60", \
     "--access-logfile", "-"]
