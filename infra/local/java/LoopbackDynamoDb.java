import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * DynamoDB Local, listening on loopback only (infra/local/src/dynamo.ts). The jar's own main binds Jetty to every
 * interface and has no option for the address; this builds the same server from the same command line, sets its
 * connector's host, then starts it.
 */
public final class LoopbackDynamoDb {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    for (Connector connector : server.getConnectors()) {
      if (connector instanceof ServerConnector serverConnector) serverConnector.setHost("127.0.0.1");
    }
    proxy.start();
  }
}
