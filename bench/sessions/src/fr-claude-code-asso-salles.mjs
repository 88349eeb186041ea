// Français, Claude Code JSONL : une tâche annexe d'abord (un alias git), le créneau changé (30 puis
// 15 minutes), Celery écarté par l'utilisatrice après que l'agent l'a ajouté, une correction
// admise (ExclusionConstraint existe), pytest en échec puis vert, deux commits, une Task Explore
// avec ses constats et une Task interrompue, une erreur d'init du shell (locale française) dans
// chaque résultat Bash, trois sorties volumineuses à côté d'un grand résultat utile, `cd` dans le
// projet, CLAUDE.md affiché avec .env, et une compaction de Claude Code au milieu (compact_boundary
// + résumé isCompactSummary).
import { Script, pathList, configDump } from '../build/script.mjs';
import { CLAUDE_CONTINUATION } from '../build/hosts.mjs';

const HOME = '/home/claire';
const P = `${HOME}/dev/asso-salles`;
const INIT = `${HOME}/.bashrc: ligne 118: /opt/ros/humble/setup.bash: Aucun fichier ou dossier de ce type`;
const sh = (out) => `${INIT}\n${out}`;
const bash = (command, description, output, opts = {}) => ({ name: 'Bash', input: { command, description }, output: sh(output), ...opts });

export function build() {
  const s = new Script({ id: 'fr-claude-code-asso-salles', seed: 41, cwd: HOME, start: '2026-11-27T08:31:00.000Z', model: 'claude-sonnet-4-5-20250929' });
  s.user("avant tout : ajoute-moi un alias git « lg » qui affiche un log en graphe, une ligne par commit, avec les branches");
  s.tools([bash(`git config --global alias.lg "log --graph --oneline --decorate --all" && git config --global --get alias.lg`, "Créer l'alias git lg", 'log --graph --oneline --decorate --all')], "J'ajoute l'alias dans ta configuration git globale.");
  s.say('C\'est fait : `git lg` affiche le graphe de toutes les branches, une ligne par commit.');
  s.user("merci. maintenant le vrai travail : l'appli de réservation des salles de l'asso, dans ~/dev/asso-salles (Django 5 + PostgreSQL). il faut empêcher les doubles réservations d'une même salle. les créneaux font 30 minutes.");
  s.tools([bash('cd ~/dev/asso-salles && git status --short && git log --oneline -4', "Entrer dans le projet et voir l'état", '6b0e4a1 Page de réservation par salle\n2f81c3d Modèles Salle et Reservation\n9a7d2e0 Authentification par lien magique\n14c5f88 Squelette Django 5')]);
  s.chdir(P);
  s.tools([{ name: 'Task', input: { description: 'Explorer asso-salles', prompt: "Explore ce projet Django : modèles, vues de réservation, tests, base de données, tout ce qui touche aux conflits de réservation. Donne chemins et numéros de ligne.", subagent_type: 'Explore' }, output: EXPLORE, blocks: [{ type: 'text', text: EXPLORE }, { type: 'text', text: "agentId: b81f0c3 (for resuming to continue this agent's work if needed)" }], extra: { status: 'completed', agentId: 'b81f0c3', totalDurationMs: 52011, totalTokens: 26873, totalToolUseCount: 24 } }], "Je commence par explorer le projet.");
  s.tools([bash('cat CLAUDE.md .env', 'Lire CLAUDE.md et la configuration locale', CLAUDE_AND_ENV)]);
  s.tools([{ name: 'TodoWrite', input: { todos: todos(['in_progress', 'pending', 'pending', 'pending', 'pending']) }, output: TODO_OK }]);
  s.say("Django 5 ne sait pas exprimer une contrainte d'exclusion sur des intervalles : je vais vérifier le chevauchement dans `Reservation.clean()` avec un verrou `select_for_update()`.");
  s.user("non, c'est faux : avec PostgreSQL il y a django.contrib.postgres.constraints.ExclusionConstraint, avec un DateTimeRangeField et RangeOperators.OVERLAPS. c'est la base qui doit garantir ça, pas clean().");
  s.say("Tu as raison, je me suis trompé : `ExclusionConstraint` existe dans `django.contrib.postgres` depuis Django 3.0. J'utilise une contrainte d'exclusion sur (`salle`, `periode`) avec `RangeOperators.EQUAL` et `RangeOperators.OVERLAPS` ; il faut l'extension `btree_gist`.");
  s.tools([{ name: 'Edit', input: { file_path: `${P}/reservations/models.py`, old_string: MODEL_OLD, new_string: MODEL_NEW }, output: `The file ${P}/reservations/models.py has been updated successfully.` }]);
  s.tools([{ name: 'Write', input: { file_path: `${P}/reservations/migrations/0004_periode_exclusion.py`, content: MIGRATION }, output: `File created successfully at: ${P}/reservations/migrations/0004_periode_exclusion.py` }]);
  s.tools([{ name: 'Write', input: { file_path: `${P}/reservations/rappels.py`, content: CELERY_TASK }, output: `File created successfully at: ${P}/reservations/rappels.py` }], "Et pour les rappels par e-mail la veille, j'ajoute une tâche Celery planifiée.");
  s.tools([bash('python manage.py migrate && pytest -q 2>&1 | tail -15', 'Migrer et lancer les tests', PYTEST_FAIL, { error: true })]);
  s.say("Deux échecs : les tests créent des réservations de 45 minutes alors que le créneau est de 30, et `celery` n'est pas installé.");
  s.user("non, pas de Celery : on garde un simple cron qui appelle une commande manage.py. pas de dépendance en plus. et finalement les créneaux font 15 minutes, pas 30 : les petites salles se réservent au quart d'heure.");
  s.say("Compris : pas de Celery, je supprime `reservations/rappels.py` et j'écris une commande `python manage.py envoyer_rappels` pour le cron. Les créneaux passent à 15 minutes.");
  s.hostSummary('claude-code', `${CLAUDE_CONTINUATION}\n\n${SUMMARY}`);
  s.tools([{ name: 'TodoWrite', input: { todos: todos(['completed', 'in_progress', 'pending', 'pending', null, 'pending']) }, output: TODO_OK }]);
  s.tools([bash('git rm -q --cached reservations/rappels.py 2>/dev/null; rm -f reservations/rappels.py && grep -rn "celery" --include=*.py . ; pip show celery 2>&1 | head -1', 'Retirer Celery', 'WARNING: Package(s) not found: celery')]);
  s.tools([{ name: 'Write', input: { file_path: `${P}/reservations/management/commands/envoyer_rappels.py`, content: COMMANDE }, output: `File created successfully at: ${P}/reservations/management/commands/envoyer_rappels.py` }]);
  s.tools([{ name: 'Edit', input: { file_path: `${P}/reservations/models.py`, old_string: 'CRENEAU = timedelta(minutes=30)', new_string: 'CRENEAU = timedelta(minutes=15)' }, output: `The file ${P}/reservations/models.py has been updated successfully.` }]);
  s.tools([
    { name: 'Task', input: { description: 'Chercher les tests à 30 min', prompt: 'Trouve tous les tests et fixtures qui supposent un créneau de 30 minutes.', subagent_type: 'Explore' }, output: '', interrupted: true },
  ], 'Un sous-agent peut chercher les tests qui supposent 30 minutes.');
  s.user('[Request interrupted by user for tool use]');
  s.user("pas besoin, c'est juste tests/test_conflits.py et conftest.py, fais-le directement");
  s.tools([bash("grep -n 'minutes=' tests/test_conflits.py tests/conftest.py", 'Trouver les durées dans les tests', 'tests/conftest.py:14:    fin = debut + timedelta(minutes=45)\ntests/test_conflits.py:22:        fin=debut + timedelta(minutes=30),\ntests/test_conflits.py:41:        fin=debut + timedelta(minutes=60),')]);
  s.tools([bash("sed -i 's/minutes=45/minutes=15/; s/minutes=30/minutes=15/; s/minutes=60/minutes=30/' tests/conftest.py tests/test_conflits.py && pytest -q 2>&1 | tail -4", 'Corriger les durées et relancer les tests', 'FAILED tests/test_rappels.py::test_envoie_la_veille - ModuleNotFoundError: No module named \'celery\'\n1 failed, 32 passed in 3.02s', { error: true })]);
  s.tools([{ name: 'Write', input: { file_path: `${P}/tests/test_rappels.py`, content: TEST_RAPPELS }, output: `The file ${P}/tests/test_rappels.py has been updated.` }]);
  s.tools([bash('pytest -q 2>&1 | tail -2', 'Relancer les tests', '.................................                                         [100%]\n33 passed in 2.87s')]);
  s.tools([bash('python manage.py diffsettings --all | head -250', 'Voir la configuration Django complète', configDump(42, 210, '', ["DATABASES = {'default': {'ENGINE': 'django.db.backends.postgresql', 'NAME': 'asso_salles'}}", "TIME_ZONE = 'Europe/Paris'"]))]);
  s.tools([bash('find . -name "*.py" -not -path "./.venv/*" | head -300; find .venv -name "*.py" | head -150', 'Lister les fichiers Python', pathList(43, '.venv/lib/python3.12/site-packages', 130))]);
  s.tools([bash('git add -A && git commit -qm "Réservations : contrainte d\'exclusion par salle, créneaux de 15 min, rappels par cron" && git log --oneline -1', 'Commiter', 'd3c91f7 Réservations : contrainte d\'exclusion par salle, créneaux de 15 min, rappels par cron')]);
  s.tools([{ name: 'TodoWrite', input: { todos: todos(['completed', 'completed', 'completed', 'completed', null, 'completed']) }, output: TODO_OK }]);
  s.say("Commit `d3c91f7` : 33 tests passent. La base refuse deux réservations qui se chevauchent dans une même salle (contrainte d'exclusion), créneaux de 15 minutes, rappels par `python manage.py envoyer_rappels` (à mettre dans la crontab, tous les jours à 18 h).");
  s.user("super. dernière chose : sur la page de réservation, si la base refuse (IntegrityError), affiche « Ce créneau vient d'être pris » au lieu d'une erreur 500");
  s.tools([{ name: 'Read', input: { file_path: `${P}/reservations/views.py` }, output: numbered(VIEWS) }]);
  s.say("Je vais attraper `IntegrityError` autour de `reservation.save()` dans `reserver()` (`reservations/views.py:31`) et renvoyer le formulaire avec le message « Ce créneau vient d'être pris ».");
  return { file: 'fr-claude-code-asso-salles.jsonl', host: 'claude-code', script: s, options: { slug: 'calme-heron-bleu' } };
}

function todos(st) {
  const items = [
    ['Contrainte anti-chevauchement par salle', 'Ajout de la contrainte'],
    ['Créneaux fixes (durée multiple du créneau)', 'Validation des créneaux'],
    ['Adapter les tests de conflits', 'Adaptation des tests'],
    ['Commit', 'Commit'],
    ['Rappels e-mail la veille (tâche Celery)', 'Ajout des rappels Celery'],
    ['Rappels e-mail la veille (commande manage.py pour le cron)', 'Ajout de la commande de rappel'],
  ];
  return items.map(([content, activeForm], i) => ({ content, status: st[i], activeForm })).filter((t) => t.status);
}

const TODO_OK = 'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable';
const numbered = (text) => text.split('\n').map((l, i) => `${String(i + 1).padStart(6)}→${l}`).join('\n');

const EXPLORE = `## asso-salles : structure et réservations

### Arborescence
- \`config/settings.py\` : Django 5.1, PostgreSQL 16 (\`DATABASES\` depuis \`.env\`), \`TIME_ZONE = "Europe/Paris"\`, \`USE_TZ = True\`.
- \`reservations/models.py\` : \`Salle\` (nom, capacité, étage) et \`Reservation\` (\`salle\` FK, \`membre\` FK vers \`membres.Membre\`, \`debut\`, \`fin\`, \`motif\`), 58 lignes.
- \`reservations/views.py\` : \`planning(salle_id)\` (ligne 12) et \`reserver(salle_id)\` (ligne 31, formulaire \`ReservationForm\`, \`reservation.save()\` ligne 44).
- \`reservations/forms.py\` : \`ReservationForm\` valide seulement \`debut < fin\`.
- \`membres/\` : authentification par lien magique.
- \`tests/\` : pytest-django, 31 tests ; \`tests/conftest.py\` crée deux salles et un membre ; \`tests/test_conflits.py\` (4 tests, dont un marqué \`xfail\` : « deux réservations qui se chevauchent sont refusées »).

### Le problème des doubles réservations
- **Aucune contrainte** en base ni dans le formulaire : deux membres peuvent réserver la même salle au même moment (le test \`xfail\` de \`tests/test_conflits.py:48\` le montre).
- \`debut\` et \`fin\` sont deux \`DateTimeField\` séparés ; aucun champ d'intervalle.
- L'extension PostgreSQL \`btree_gist\` n'est **pas** activée (\`\\dx\` ne liste que \`plpgsql\`).
- Les créneaux ne sont pas imposés : une réservation de 17 minutes est acceptée.

### Données
- 6 salles ; la « Grande salle » (id 1) fait 80 % des réservations.
- \`Reservation.Meta.ordering = ["debut"]\`, index sur (\`salle\`, \`debut\`).

### Divers
- \`README.md\` : déploiement sur un VPS, cron disponible, pas de worker en arrière-plan (« on ne veut pas de Redis »).
- \`requirements.txt\` : Django, psycopg, pytest-django ; rien d'autre.`;

const CLAUDE_AND_ENV = `# CLAUDE.md

This file provides guidance to Claude Code (claude.ai/code) when working with code in this repository.

## Commandes
- \`pytest -q\` : tous les tests (pytest-django, base de test PostgreSQL)
- \`python manage.py runserver\`

## Règles
- Réponses et messages de commit en français.
- Pas de nouvelle dépendance sans accord.
DATABASE_URL=postgres://localhost:5432/asso_salles
DJANGO_SECRET_KEY=<à définir>
EMAIL_HOST=smtp.asso.example`;

const MODEL_OLD = `class Reservation(models.Model):
    salle = models.ForeignKey(Salle, on_delete=models.CASCADE)
    membre = models.ForeignKey("membres.Membre", on_delete=models.CASCADE)
    debut = models.DateTimeField()
    fin = models.DateTimeField()`;
const MODEL_NEW = `CRENEAU = timedelta(minutes=30)


class Reservation(models.Model):
    salle = models.ForeignKey(Salle, on_delete=models.CASCADE)
    membre = models.ForeignKey("membres.Membre", on_delete=models.CASCADE)
    periode = DateTimeRangeField()

    class Meta:
        constraints = [
            ExclusionConstraint(
                name="reservation_sans_chevauchement",
                expressions=[("salle", RangeOperators.EQUAL), ("periode", RangeOperators.OVERLAPS)],
            )
        ]`;
const MIGRATION = `from django.contrib.postgres.operations import BtreeGistExtension
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("reservations", "0003_salle_etage")]
    operations = [BtreeGistExtension()]`;
const CELERY_TASK = `from celery import shared_task


@shared_task
def envoyer_rappels():
    """Envoie la veille un e-mail à chaque membre qui a réservé."""`;
const COMMANDE = `from django.core.management.base import BaseCommand

from reservations.rappels_mail import rappels_de_demain


class Command(BaseCommand):
    help = "Envoie les rappels des réservations du lendemain (à lancer par cron, une fois par jour)."

    def handle(self, *args, **options):
        n = rappels_de_demain()
        self.stdout.write(f"{n} rappel(s) envoyé(s)")`;
const TEST_RAPPELS = `from django.core import mail
from django.core.management import call_command


def test_envoie_la_veille(reservation_demain):
    call_command("envoyer_rappels")
    assert len(mail.outbox) == 1`;

const PYTEST_FAIL = `Operations to perform:
  Apply all migrations: admin, auth, contenttypes, membres, reservations, sessions
Running migrations:
  Applying reservations.0004_periode_exclusion... OK
FAILED tests/test_conflits.py::test_creneau_de_45_minutes - ValidationError: la durée doit être un multiple de 30 minutes
FAILED tests/test_rappels.py::test_envoie_la_veille - ModuleNotFoundError: No module named 'celery'
2 failed, 31 passed in 3.41s`;

const SUMMARY = `Résumé de la conversation précédente :

1. Demande : empêcher les doubles réservations d'une même salle dans l'appli de réservation des salles de l'association (~/dev/asso-salles, Django 5.1 + PostgreSQL 16). Tâche annexe déjà faite : l'alias git « lg » (log --graph --oneline --decorate --all).
2. Décisions :
   - La base garantit l'absence de chevauchement : ExclusionConstraint (django.contrib.postgres) sur (salle EQUAL, periode OVERLAPS), periode = DateTimeRangeField, extension btree_gist (migration reservations/migrations/0004_periode_exclusion.py). L'utilisatrice a corrigé l'agent, qui pensait que Django ne savait pas exprimer cette contrainte.
   - Créneaux : d'abord 30 minutes ; l'utilisatrice vient de passer à 15 minutes (les petites salles se réservent au quart d'heure).
   - Pas de Celery (refusé par l'utilisatrice, pas de dépendance en plus) : les rappels de la veille passent par une commande manage.py lancée par cron. reservations/rappels.py (tâche Celery) doit être supprimé.
3. Constats de l'exploration : aucune contrainte existante ; test xfail dans tests/test_conflits.py:48 ; btree_gist n'était pas activée ; README : pas de Redis ni de worker.
4. Règles du projet (CLAUDE.md) : réponses et messages de commit en français ; pas de nouvelle dépendance sans accord ; tests avec pytest -q.
5. Dernier état : migration appliquée ; pytest : 2 échecs (un test de 45 minutes, celery absent), 31 réussis.
6. Suite : supprimer Celery, écrire la commande envoyer_rappels, passer CRENEAU à 15 minutes, corriger les tests, commiter.`;

const VIEWS = `from django.shortcuts import get_object_or_404, redirect, render

from .forms import ReservationForm
from .models import Reservation, Salle


def planning(request, salle_id):
    salle = get_object_or_404(Salle, pk=salle_id)
    return render(request, "reservations/planning.html", {"salle": salle})


def reserver(request, salle_id):
    salle = get_object_or_404(Salle, pk=salle_id)
    form = ReservationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        reservation = form.save(commit=False)
        reservation.salle = salle
        reservation.membre = request.user.membre
        reservation.save()
        return redirect("planning", salle_id=salle.id)
    return render(request, "reservations/reserver.html", {"form": form, "salle": salle})`;
