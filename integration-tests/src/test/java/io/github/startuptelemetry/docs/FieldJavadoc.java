package io.github.startuptelemetry.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import javax.lang.model.element.Modifier;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import com.sun.source.doctree.DocCommentTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.DocTrees;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;

/**
 * The Javadoc of a class's fields, read from its source as Spring Boot's configuration processor
 * reads it (the comment's body, without block tags). The processor documents no field of a list
 * or map element ({@code telemetry.supervisor.servers[]}), so the properties page reads those
 * from the source, with the JDK's own parser.
 */
final class FieldJavadoc {

	private FieldJavadoc() {
	}

	/**
	 * The instance fields of a (possibly nested) class in declaration order, each with its Javadoc
	 * ({@code ""} when it has none).
	 * @param sourceRoots the directories of the sources (each module's {@code src/main/java})
	 * @param type the class
	 * @return field name to Javadoc
	 */
	static Map<String, String> of(List<Path> sourceRoots, Class<?> type) {
		Class<?> outer = type;
		while (outer.getEnclosingClass() != null) {
			outer = outer.getEnclosingClass();
		}
		String file = outer.getName().replace('.', '/') + ".java";
		Path source = sourceRoots.stream()
			.map((root) -> root.resolve(file))
			.filter(Files::isRegularFile)
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No source for " + type.getName() + " in " + sourceRoots));
		JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
		try (StandardJavaFileManager files = compiler.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
			JavacTask task = (JavacTask) compiler.getTask(null, files, null, List.of("-proc:none"), null,
					files.getJavaFileObjects(source));
			DocTrees docs = DocTrees.instance(task);
			Map<String, String> fields = new LinkedHashMap<>();
			String wanted = type.getName().substring(type.getPackageName().length() + 1).replace('$', '.');
			for (CompilationUnitTree unit : task.parse()) {
				new TreePathScanner<Void, String>() {

					@Override
					public Void visitClass(ClassTree tree, String enclosing) {
						String name = enclosing.isEmpty() ? tree.getSimpleName().toString()
								: enclosing + "." + tree.getSimpleName();
						if (name.equals(wanted)) {
							for (Tree member : tree.getMembers()) {
								if (member instanceof VariableTree field
										&& !field.getModifiers().getFlags().contains(Modifier.STATIC)) {
									DocCommentTree doc = docs.getDocCommentTree(new TreePath(getCurrentPath(), field));
									fields.put(field.getName().toString(), (doc != null) ? text(doc) : "");
								}
							}
						}
						return super.visitClass(tree, name);
					}

				}.scan(unit, "");
			}
			if (fields.isEmpty() && type.getDeclaredFields().length > 0) {
				throw new IllegalStateException("No fields of " + wanted + " found in " + source);
			}
			return fields;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String text(DocCommentTree doc) {
		return doc.getFullBody().stream().map(Object::toString).collect(Collectors.joining()).replaceAll("\\s+", " ").trim();
	}

}
